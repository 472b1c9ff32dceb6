import { AccountDetailsPage } from './AccountDetailsPage.tsx';
import { BalanceTotalPage } from './BalanceTotalPage.tsx';

export const AccountDetails = () => <AccountDetailsPage line="truck" />;
export const ExpressAccountDetails = () => <AccountDetailsPage line="express" />;
export const BalanceTotal = () => <BalanceTotalPage line="truck" />;
export const ExpressBalanceTotal = () => <BalanceTotalPage line="express" />;
export const AccountLog = () => <AccountDetailsPage line="truck" view="log" />;
export const ExpressAccountLog = () => <AccountDetailsPage line="express" view="log" />;
export const DeductionDetails = () => <AccountDetailsPage line="truck" view="deductions" />;
