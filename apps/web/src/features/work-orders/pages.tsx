import { WorkOrderDetailPage } from './WorkOrderDetailPage.tsx';
import { WorkOrdersPage } from './WorkOrdersPage.tsx';

/** One list and one detail page for both lines (SPEC section 2: truck and express work-order routes). */
export const TruckWorkOrderList = () => <WorkOrdersPage line="truck" />;
export const TruckWorkOrderDetail = () => <WorkOrderDetailPage line="truck" />;
export const ExpressWorkOrderList = () => <WorkOrdersPage line="express" />;
export const ExpressWorkOrderDetail = () => <WorkOrderDetailPage line="express" />;
