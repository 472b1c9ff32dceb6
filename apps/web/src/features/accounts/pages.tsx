import { AccountDetailsPage } from './AccountDetailsPage.tsx';
import { BalanceTotalPage } from './BalanceTotalPage.tsx';

export const AccountDetails = () => <AccountDetailsPage line="truck" />;
export const ExpressAccountDetails = () => <AccountDetailsPage line="express" />;
export const BalanceTotal = () => <BalanceTotalPage line="truck" />;
export const ExpressBalanceTotal = () => <BalanceTotalPage line="express" />;
