import { type GlobalToken, theme } from 'antd';
import { BarChart, type BarSeriesOption, LineChart, type LineSeriesOption } from 'echarts/charts';
import {
  GridComponent,
  type GridComponentOption,
  LegendComponent,
  type LegendComponentOption,
  TooltipComponent,
  type TooltipComponentOption,
} from 'echarts/components';
import { type ComposeOption, type ECharts, init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

// Only the charts and parts the pages draw are bundled; a page needing another registers it here.
use([LineChart, BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export type ChartOption = ComposeOption<
  LineSeriesOption | BarSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption
>;

type Axis = NonNullable<ChartOption['xAxis']>;

/** The axes in the interface's colours: muted labels, a border-coloured axis line, dashed grid lines. */
function themedAxes(axes: Axis | undefined, token: GlobalToken): Axis | undefined {
  if (!axes) return axes;
  // An axis's own settings win over the theme's (e.g. a second value axis without grid lines).
  const style = (axis: object) => {
    const own = axis as Record<string, object | undefined>;
    return {
      ...axis,
      axisLabel: { color: token.colorTextSecondary, fontSize: token.fontSizeSM, ...own.axisLabel },
      axisLine: { lineStyle: { color: token.colorBorder }, ...own.axisLine },
      axisTick: { lineStyle: { color: token.colorBorder }, ...own.axisTick },
      splitLine: { lineStyle: { color: token.colorBorderSecondary, type: 'dashed' }, ...own.splitLine },
    };
  };
  return (Array.isArray(axes) ? axes.map(style) : style(axes)) as Axis;
}

/** The page's option with the theme's palette, text and tooltip, and no animation. */
function themed(option: ChartOption, token: GlobalToken): ChartOption {
  return {
    // Browser tests compare screenshots: a chart is drawn in its final state at once.
    animation: false,
    color: [token.colorPrimary, token.colorInfo, token.colorSuccess, token.colorWarning, token.colorError],
    textStyle: { fontFamily: token.fontFamily, color: token.colorText },
    ...option,
    legend: option.legend
      ? { textStyle: { color: token.colorText, fontSize: token.fontSizeSM }, ...(option.legend as object) }
      : undefined,
    tooltip: option.tooltip
      ? {
          backgroundColor: token.colorBgElevated,
          borderColor: token.colorBorderSecondary,
          textStyle: { color: token.colorText, fontSize: token.fontSizeSM },
          ...(option.tooltip as object),
        }
      : undefined,
    xAxis: themedAxes(option.xAxis, token),
    yAxis: themedAxes(option.yAxis as Axis | undefined, token) as ChartOption['yAxis'],
  };
}

/**
 * One ECharts chart filling its container's width: redrawn when the option or the theme changes,
 * resized with the container, released when the page goes.
 */
export function EChart({ option, height, testId }: { option: ChartOption; height: number; testId?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const { token } = theme.useToken();

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const instance = init(element, undefined, { renderer: 'canvas' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(themed(option, token), { notMerge: true });
  }, [option, token]);

  return <div ref={box} style={{ width: '100%', height }} data-testid={testId} />;
}
