import { useSession } from '../../context/session.tsx';
import { ReceivingAccountsButton } from './ReceivingAccounts.tsx';
import { RechargeListTable } from './RechargeListTable.tsx';
import { RechargePage } from './RechargePage.tsx';

export const Recharge = () => <RechargePage line="truck" />;
export const ExpressRecharge = () => <RechargePage line="express" />;
/** Staff manage the receiving accounts from the recharge management pages. */
function StaffTools() {
  const { userInfo } = useSession();
  return userInfo?.identity === 'employee' ? (
    <div style={{ marginBottom: 12 }}>
      <ReceivingAccountsButton />
    </div>
  ) : null;
}

export const RechargeManagement = () => (
  <div className="page-card">
    <StaffTools />
    <RechargeListTable line="truck" />
  </div>
);
export const ExpressRechargeManagement = () => (
  <div className="page-card">
    <StaffTools />
    <RechargeListTable line="express" />
  </div>
);
export const RechargeReview = () => (
  <div className="page-card">
    <RechargeListTable line="truck" defaultStatus="submitted" />
  </div>
);
export const ExpressRechargeReview = () => (
  <div className="page-card">
    <RechargeListTable line="express" defaultStatus="submitted" />
  </div>
);
