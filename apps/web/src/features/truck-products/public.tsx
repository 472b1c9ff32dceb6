import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useSession } from '../../app/session.tsx';

// The drawer (a table of products) loads when a customer first opens it, not with the top bar.
const ProductsDrawer = lazy(() =>
  import('./ProductsDrawer.tsx').then((m) => ({ default: m.ProductsDrawer })),
);

/**
 * The top bar's freight-rules entry: staff go to the tariff page, everyone else opens the drawer of
 * their products. The caller draws the button; this decides what it does.
 */
export function FreightRulesEntry({
  onStaff,
  children,
}: {
  onStaff: () => void;
  children: (open: () => void) => ReactNode;
}) {
  const { userInfo } = useSession();
  const [open, setOpen] = useState(false);
  // Once opened it stays mounted, so closing it animates as before.
  const [opened, setOpened] = useState(false);
  const staff = userInfo?.identity === 'employee';
  const show = () => {
    setOpened(true);
    setOpen(true);
  };
  return (
    <>
      {children(staff ? onStaff : show)}
      {staff || !opened ? null : (
        <Suspense fallback={null}>
          <ProductsDrawer open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
