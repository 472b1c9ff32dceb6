import { Badge } from 'antd';
import type { HTMLAttributes, Ref } from 'react';

/**
 * A count over the top corner of its button, drawn only while there is something to count. antd's
 * badge around a button mounts a motion even at zero, which re-renders itself inside the commit of
 * the top bar that holds it. Other props and the ref go to its element, so a tooltip can wrap it.
 */
export function CountBadge({
  count,
  testId,
  children,
  ref,
  ...rest
}: HTMLAttributes<HTMLSpanElement> & { count: number; testId: string; ref?: Ref<HTMLSpanElement> }) {
  return (
    <span {...rest} ref={ref} className="count-badge-anchor" data-testid={testId} data-count={count}>
      {children}
      {count > 0 ? <Badge count={count} size="small" className="count-badge" /> : null}
    </span>
  );
}
