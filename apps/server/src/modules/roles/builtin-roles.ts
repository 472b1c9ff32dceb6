import { flattenMenu } from '@freight/contracts/menu';

const all = flattenMenu();
const allPages = all.map((m) => m.id);
const allButtons = all.flatMap((m) => (m.buttons ?? []).map((b) => b.key));

const without = (ids: number[], drop: number[]) => ids.filter((id) => !drop.includes(id));

/** Pages of the business a customer runs itself: quoting, orders, its own money, addresses, work orders. */
/** Customers see their express bills on /abnormalBilling (115); /expressBounceBill (116) is staff's. */
const customerPages = [
  20, 21, 22, 23, 24, 25, 27, 28, 30, 31, 32, 33, 40, 80, 81, 82, 84, 85, 86, 87, 111, 112, 113, 115, 117, 50,
  51, 60, 61, 62, 63, 90, 92,
  // API keys (`/apiKeys`): a shipper's own system books through a key acting as the user.
  151,
  // Webhooks (`/webhooks`): the same shipper's system hears of its orders' status changes.
  152,
];
const customerButtons = [
  'order:cancel',
  'address:save',
  'address:delete',
  'address:import',
  'express-address:save',
  'express-address:delete',
  'express-address:import',
  'order:export',
  'account:export',
  'express-account:export',
  'express-order:export',
  'express-return:export',
];

/** What a branch or agent may do with the organisations under it. */
const organisationButtons = [
  'customer:save',
  'customer:status',
  'customer:export',
  'customer:invite',
  'customer:price',
];

export interface BuiltinRole {
  code: string;
  name: string;
  nameEn: string;
  description: string;
  descriptionEn: string;
  menuIds: number[];
  buttonKeys: string[];
}

/** The roles every tenant starts with; staff can add their own and re-grant these. */
export const BUILTIN_ROLES: BuiltinRole[] = [
  {
    code: 'admin',
    name: '超级管理员',
    nameEn: 'Administrator',
    description: '全部页面和操作',
    descriptionEn: 'All pages and actions',
    menuIds: allPages,
    buttonKeys: allButtons,
  },
  {
    code: 'editor',
    name: '运营',
    nameEn: 'Operations editor',
    description: '负责日常业务；不含权限、员工管理和手工调整余额',
    descriptionEn: 'Runs the business; no rights, staff or manual balance adjustments',
    // Tenants are the platform administrator's alone.
    menuIds: without(allPages, [11, 120, 121, 78, 140]),
    buttonKeys: allButtons.filter(
      (k) =>
        !k.startsWith('role:') &&
        !k.startsWith('tenant:') &&
        !k.startsWith('staff:') &&
        !k.endsWith('account:adjust') &&
        k !== 'operation-log:export',
    ),
  },
  {
    code: 'branch',
    name: '分公司',
    nameEn: 'Branch office',
    description: '分公司及其代理和客户',
    descriptionEn: 'A branch office and its agents and customers',
    menuIds: [...customerPages, 71, 72, 73, 75, 76, 77, 83, 91, 114],
    buttonKeys: [...customerButtons, ...organisationButtons],
  },
  {
    code: 'agent',
    name: '代理',
    nameEn: 'Agent',
    description: '代理及其客户',
    descriptionEn: 'An agent and its customers',
    menuIds: [...customerPages, 71, 75, 83, 91, 114],
    buttonKeys: [...customerButtons, ...organisationButtons],
  },
  {
    code: 'customer',
    name: '客户',
    nameEn: 'Customer',
    description: '发货客户',
    descriptionEn: 'A shipper',
    menuIds: customerPages,
    buttonKeys: customerButtons,
  },
];
