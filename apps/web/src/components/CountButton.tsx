import { Badge, Button, type ButtonProps } from 'antd';
import type { ReactNode } from 'react';
import { Hint } from './OnDemand.tsx';

/**
 * A top-bar icon button with its hint and a count over its top corner, drawn only while there is
 * something to count: antd's badge around a button mounts a motion even at zero, which re-renders
 * itself inside the commit of the top bar that holds it.
 */
export function CountButton({
  count,
  countTestId,
  hint,
  ...button
}: ButtonProps & { count: number; countTestId: string; hint: ReactNode }) {
  return (
    <Hint title={hint}>
      <span className="count-badge-anchor" data-testid={countTestId} data-count={count}>
        <Button type="text" {...button} />
        {count > 0 ? <Badge count={count} size="small" className="count-badge" /> : null}
      </span>
    </Hint>
  );
}
