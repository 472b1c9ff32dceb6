import { lazy, type ReactNode, Suspense } from 'react';
import { useSession } from '../../context/session.tsx';
import { useOpenedOnce } from '../../hooks/useOpenedOnce.ts';

/** The products drawer (a table) loads when first opened: every page of the shell draws this entry. */
const ProductsDrawer = lazy(() => import('./ProductsDrawer.tsx'));

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
  const drawer = useOpenedOnce();
  const staff = userInfo?.identity === 'employee';
  return (
    <>
      {children(staff ? onStaff : drawer.show)}
      {staff || !drawer.opened ? null : (
        <Suspense fallback={null}>
          <ProductsDrawer open={drawer.open} onClose={drawer.hide} />
        </Suspense>
      )}
    </>
  );
}
