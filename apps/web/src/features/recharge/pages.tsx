import { RechargeListTable } from './RechargeListTable.tsx';
import { RechargePage } from './RechargePage.tsx';

export const Recharge = () => <RechargePage line="truck" />;
export const ExpressRecharge = () => <RechargePage line="express" />;
export const RechargeManagement = () => (
  <div className="page-card">
    <RechargeListTable line="truck" reviewKey="recharge:review" />
  </div>
);
export const ExpressRechargeManagement = () => (
  <div className="page-card">
    <RechargeListTable line="express" reviewKey="express-recharge:review" />
  </div>
);
export const RechargeReview = () => (
  <div className="page-card">
    <RechargeListTable line="truck" reviewKey="recharge:review" defaultStatus="submitted" />
  </div>
);
export const ExpressRechargeReview = () => (
  <div className="page-card">
    <RechargeListTable line="express" reviewKey="express-recharge:review" defaultStatus="submitted" />
  </div>
);
