import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useSession } from '../../app/session.tsx';

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
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const staff = userInfo?.identity === 'employee';
  const show = () => {
    setWanted(true);
    setOpen(true);
  };
  return (
    <>
      {children(staff ? onStaff : show)}
      {staff || !wanted ? null : (
        <Suspense fallback={null}>
          <ProductsDrawer open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
