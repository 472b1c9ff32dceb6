import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@freight/contracts/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TablePaginationConfig } from 'antd';
import { Button, Card, Empty, Form, type FormInstance, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isMenuNode, type MenuNode, useSession } from '../context/session.tsx';
import { post } from '../lib/http.ts';

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  limit: number;
}

type Period = [Dayjs | null, Dayjs | null] | null | undefined;

/** A range picker's days as a filter of calendar days (`YYYY-MM-DD`, both ends included). */
export const periodDays = (period: Period) => ({
  from: period?.[0]?.format('YYYY-MM-DD'),
  to: period?.[1]?.format('YYYY-MM-DD'),
});

/** A range picker's days as instants: from the first day's start to the start of the day after the last. */
export const periodInstants = (period: Period) => ({
  from: period?.[0]?.startOf('day').toISOString(),
  to: period?.[1]?.add(1, 'day').startOf('day').toISOString(),
});

/**
 * The pager every list shows (SPEC section 9): sizes 10 to 200, total, jumper. The stylesheet puts its
 * parts in the SPEC's order (total, sizes, prev, pager, next, jumper) and gives a table that carries it
 * the list's height and sticky header (the `list-pager` class marks it).
 */
export function listPager(t: TFunction, capped = false): TablePaginationConfig {
  return {
    className: 'list-pager',
    showSizeChanger: true,
    showQuickJumper: true,
    pageSizeOptions: PAGE_SIZES.map(String),
    // A list that stops counting at a cap says so rather than give a wrong total.
    showTotal: (total) => (capped ? t('common.totalAtLeast', { total }) : t('common.total', { total })),
  };
}

/** The pager of a list the page holds whole (the table pages it itself), 10 rows first. */
export function useLocalPager(): TablePaginationConfig {
  const { t } = useTranslation();
  return { ...listPager(t), defaultPageSize: DEFAULT_PAGE_SIZE };
}

/**
 * The one list-page pattern: filters posted with page and limit, the answer's page shown in a table
 * with the SPEC's pager (sizes 10 to 200, default 10, total, jumper).
 */
export function useServerList<T>(url: string, filters: object) {
  const { t, i18n } = useTranslation();
  const [paging, setPaging] = useState({ page: 1, limit: DEFAULT_PAGE_SIZE });
  const query = useQuery({
    // The server words some of what it lists (notes it wrote itself): a new language reads it again.
    queryKey: [url, filters, paging, i18n.language],
    queryFn: () => post<Page<T>>(url, { ...filters, ...paging }),
    placeholderData: keepPreviousData,
  });
  const pagination: TablePaginationConfig = {
    ...listPager(t, (query.data as { totalCapped?: boolean } | undefined)?.totalCapped === true),
    current: paging.page,
    pageSize: paging.limit,
    total: query.data?.total ?? 0,
    onChange: (page, limit) => setPaging({ page: limit === paging.limit ? page : 1, limit }),
  };
  return {
    /** The whole answer, for lists that also carry totals. */
    extra: query.data as (Page<T> & Record<string, unknown>) | undefined,
    rows: query.data?.list ?? [],
    loading: query.isFetching,
    pagination,
    refetch: query.refetch,
    resetPage: () => setPaging((p) => ({ ...p, page: 1 })),
    paging,
  };
}

/**
 * What every list table shares: columns as wide as their content (never cut under a pinned column),
 * the table at least `minWidth` wide and scrolling sideways beyond the screen, cells on one line.
 */
export function listTableProps(minWidth: number) {
  return { scroll: { x: minWidth }, tableLayout: 'auto', className: 'nowrap-table' } as const;
}

/**
 * Text a no-wrap list cannot afford at full length (a name, an address, a set of tags): it wraps within
 * `width`, whole and readable, rather than widening the table under its pinned columns. Words break
 * only when one is longer than the width (an e-mail stays whole); `anywhere` lets the table squeeze the
 * column below the longest word, for free text such as names and streets.
 */
export function Wrapped({
  width,
  anywhere = false,
  children,
}: {
  width: number;
  anywhere?: boolean;
  children: ReactNode;
}) {
  const overflowWrap = anywhere ? 'anywhere' : 'break-word';
  return <div style={{ maxWidth: width, whiteSpace: 'normal', overflowWrap }}>{children}</div>;
}

/**
 * SPEC section 9: a list's table is 50 px shorter for each row its filters wrap onto beyond the first.
 * The filter bar counts its rows as they wrap and tells the list beside it through a CSS variable.
 */
function useFilterRows(card: { current: HTMLDivElement | null }) {
  useEffect(() => {
    const element = card.current;
    const holder = element?.parentElement;
    const form = element?.querySelector('form');
    if (!holder || !form) return;
    const measure = () => {
      const tops = new Set(
        Array.from(form.children, (child) => Math.round((child as HTMLElement).offsetTop)),
      );
      holder.style.setProperty('--filter-extra-rows', String(Math.max(tops.size - 1, 0)));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(form);
    return () => observer.disconnect();
  }, [card]);
}

export function FilterBar<T>({
  form,
  onSearch,
  children,
  extra,
}: {
  form: FormInstance<T>;
  onSearch: (values: T) => void;
  children: ReactNode;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const card = useRef<HTMLDivElement>(null);
  useFilterRows(card);
  return (
    <Card size="small" className="filter-bar" style={{ marginBottom: 12 }} ref={card}>
      <Form form={form} layout="inline" onFinish={onSearch} style={{ rowGap: 8 }}>
        {children}
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" data-testid="filter-search">
              {t('common.search')}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                onSearch(form.getFieldsValue());
              }}
            >
              {t('common.reset')}
            </Button>
          </Space>
        </Form.Item>
        {extra ? <Form.Item style={{ marginLeft: 'auto', marginRight: 0 }}>{extra}</Form.Item> : null}
      </Form>
    </Card>
  );
}

/** The page at `path` in the user's menu, if it holds it. */
function menuPage(nodes: MenuNode[], path: string): MenuNode | undefined {
  for (const node of nodes) {
    if (node.paths === path) return node;
    const found = menuPage(node.subList.filter(isMenuNode) as MenuNode[], path);
    if (found) return found;
  }
  return undefined;
}

/** Whether any of a list's filters is set: an empty answer then means nothing matched, not that none exist. */
export const filtersSet = (filters: object) =>
  Object.values(filters).some((value) => value !== undefined && value !== '');

/**
 * An empty list says what fills it, and offers the step that does when the user may take it: a page
 * of theirs to open (`to`, shown only when their menu has it, and when `toButton` is given only when
 * that page grants them the button the step needs there) or a button of the page (`action`). A list
 * emptied by its filters says only that nothing matched (`noMatch`, given while filters are set).
 */
export function ListEmpty({
  text,
  to,
  toButton,
  label,
  action,
  noMatch,
}: {
  text: string;
  to?: string;
  toButton?: string;
  label?: string;
  action?: ReactNode;
  noMatch?: string | false;
}) {
  const { menus } = useSession();
  const navigate = useNavigate();
  const target = to ? menuPage(menus, to) : undefined;
  const mayTake =
    target !== undefined &&
    (!toButton || target.subList.some((item) => !isMenuNode(item) && item.component === toButton));
  if (noMatch)
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={<span data-testid="list-no-match">{noMatch}</span>}
      />
    );
  const link =
    to && label && mayTake ? (
      <Button type="primary" onClick={() => navigate(to)} data-testid="list-empty-action">
        {label}
      </Button>
    ) : null;
  return (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<span data-testid="list-empty">{text}</span>}>
      {link ?? action ?? null}
    </Empty>
  );
}
