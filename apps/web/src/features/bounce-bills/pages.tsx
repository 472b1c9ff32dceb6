import { BounceBillsPage } from './BounceBillsPage.tsx';

/** One page for both lines: truck `/bounceBill`; express `/abnormalBilling` (customers) and `/expressBounceBill` (staff). */
export const BounceBill = () => <BounceBillsPage line="truck" />;
export const AbnormalBilling = () => <BounceBillsPage line="express" />;
export const ExpressBounceBill = () => <BounceBillsPage line="express" />;
