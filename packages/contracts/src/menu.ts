/**
 * The product's menu: every route of SPEC section 2, grouped by the menu areas of SPEC section 1.
 * Seeded into the database; roles grant items and button keys from it. Ids 8, 110, 26 and 122 carry
 * the waiting-count badges (SPEC section 2, layout).
 */
export interface MenuButton {
  key: string;
  name: string;
  name_en: string;
}

export interface MenuDefinition {
  id: number;
  name: string;
  name_en: string;
  icon: string;
  /** Route path; a group has its first child's area path (`/area-...`). */
  path: string;
  /** `Layout` for a group, otherwise the view name the client maps to a page. */
  component: string;
  is_show: 0 | 1;
  /** SPEC section 2: routes restricted to admin and editor. */
  permissions?: readonly string[];
  /** SPEC section 2: the query quotation, payment and set-price pages are not cached. */
  keepAlive?: false;
  buttons?: readonly MenuButton[];
  children?: readonly MenuDefinition[];
}

const ADMIN_EDITOR = ['admin', 'editor'] as const;

const b = (key: string, name: string, name_en: string): MenuButton => ({ key, name, name_en });

/** Buttons of the customer pages; the same keys on the truck and express pages. */
const CUSTOMER_BUTTONS: readonly MenuButton[] = [
  b('customer:save', '新增/编辑', 'Add / edit'),
  b('customer:status', '启用/禁用', 'Enable / disable'),
  b('customer:export', '导出', 'Export'),
  b('customer:invite', '邀请码', 'Invitation codes'),
  b('customer:price', '价格等级', 'Price levels'),
  b('account:freeze', '冻结/解冻', 'Freeze / unfreeze'),
  b('account:credit', '授信额度', 'Credit limit'),
];

const page = (
  id: number,
  path: string,
  component: string,
  name: string,
  name_en: string,
  icon: string,
  extra: Partial<MenuDefinition> = {},
): MenuDefinition => ({ id, path, component, name, name_en, icon, is_show: 1, ...extra });

const group = (
  id: number,
  path: string,
  name: string,
  name_en: string,
  icon: string,
  children: MenuDefinition[],
): MenuDefinition => ({ id, path, component: 'Layout', name, name_en, icon, is_show: 1, children });

export const MENU: readonly MenuDefinition[] = [
  page(1, '/home', 'Home', '首页', 'Home', 'HomeOutlined'),
  group(2, '/area-orders', '订单管理', 'Orders', 'ProfileOutlined', [
    page(20, '/orderList', 'TruckOrderList', '卡车订单', 'Truck orders', 'CarOutlined', {
      buttons: [
        b('order:review', '审核', 'Review'),
        b('order:export', '导出', 'Export'),
        b('order:cancel', '取消', 'Cancel'),
        b('order:update', '更新状态', 'Update status'),
      ],
    }),
    page(21, '/orderInfo', 'TruckOrderInfo', '订单详情', 'Order detail', 'FileTextOutlined', { is_show: 0 }),
    page(22, '/addAddress', 'TruckOrderPayment', '订单支付', 'Order payment', 'PayCircleOutlined', {
      is_show: 0,
      keepAlive: false,
    }),
    page(23, '/order45Pay', 'TruckOrderPay', '订单付款', 'Pay order', 'PayCircleOutlined', {
      is_show: 0,
      keepAlive: false,
    }),
    page(24, '/expressOrderList', 'ExpressOrderList', '快递订单', 'Express orders', 'InboxOutlined', {
      buttons: [
        b('express-order:refund', '退款', 'Refund'),
        b('express-order:export', '导出', 'Export'),
        b('express-order:update', '更新状态', 'Update status'),
      ],
    }),
    page(25, '/expressReturnsList', 'ExpressReturnList', '快递退货', 'Express returns', 'RollbackOutlined', {
      buttons: [b('express-return:export', '导出', 'Export')],
    }),
    page(27, '/waybillTracking', 'WaybillTracking', '运单追踪', 'Waybill tracking', 'AimOutlined', {
      buttons: [b('express-tracking:update', '记录轨迹', 'Record scans')],
    }),
    page(28, '/waybillValuation', 'ExpressOrderPayment', '运单支付', 'Waybill payment', 'PayCircleOutlined', {
      is_show: 0,
      keepAlive: false,
    }),
  ]),
  group(3, '/area-quotation', '报价', 'Quotation', 'CalculatorOutlined', [
    page(30, '/mail', 'TruckQuote', '卡车在线报价', 'Truck online quote', 'CarOutlined'),
    page(31, '/quoteList', 'TruckQuoteList', '卡车报价记录', 'Truck quotes', 'UnorderedListOutlined'),
    page(32, '/onlineQuotation', 'ExpressQuote', '快递在线报价', 'Express online quote', 'SendOutlined'),
    page(33, '/queryQuotation', 'ExpressQuoteQuery', '查询报价', 'Query quotation', 'SearchOutlined', {
      keepAlive: false,
    }),
  ]),
  group(4, '/area-quotation-tasks', '报价任务', 'Quotation tasks', 'ScheduleOutlined', [
    page(
      40,
      '/quotationList',
      'QuotationTaskList',
      '人工报价任务',
      'Manual quote tasks',
      'ScheduleOutlined',
      {
        buttons: [b('quotation-task:price', '报价', 'Price')],
      },
    ),
  ]),
  group(8, '/area-billing', '账单与充值管理', 'Billing & recharge', 'WalletOutlined', [
    page(26, '/rechargeReview', 'RechargeReview', '充值审核', 'Recharge review', 'AuditOutlined', {
      buttons: [b('recharge:review', '审核', 'Review')],
    }),
    page(80, '/rechargeMGT', 'RechargeManagement', '充值管理', 'Recharges', 'MoneyCollectOutlined'),
    page(81, '/recharge', 'Recharge', '充值', 'Recharge', 'PlusCircleOutlined'),
    page(82, '/accountDetails', 'AccountDetails', '账户明细', 'Account details', 'AccountBookOutlined', {
      buttons: [b('account:export', '导出', 'Export'), b('account:adjust', '手工调账', 'Manual adjustment')],
    }),
    page(83, '/balanceTotal', 'BalanceTotal', '余额汇总', 'Balance summary', 'FundOutlined'),
    page(84, '/bounceBill', 'BounceBill', '异常账单', 'Bounce bills', 'ExceptionOutlined', {
      buttons: [b('bounce-bill:save', '新增', 'Add')],
    }),
    page(85, '/accountLog', 'AccountLog', '账户日志', 'Account log', 'HistoryOutlined'),
    page(86, '/invoices', 'Invoices', '发票', 'Invoices', 'FileDoneOutlined'),
    page(
      87,
      '/deductionDetails',
      'DeductionDetails',
      '补扣明细',
      'Supplementary deductions',
      'MinusCircleOutlined',
    ),
  ]),
  group(110, '/area-express-billing', '快递账单与充值', 'Express billing', 'WalletOutlined', [
    page(
      122,
      '/deliveryRechargeReview',
      'ExpressRechargeReview',
      '快递充值审核',
      'Express recharge review',
      'AuditOutlined',
      {
        buttons: [b('express-recharge:review', '审核', 'Review')],
      },
    ),
    page(
      111,
      '/deliveryRechargeMGT',
      'ExpressRechargeManagement',
      '快递充值管理',
      'Express recharges',
      'MoneyCollectOutlined',
    ),
    page(112, '/expressrecharge', 'ExpressRecharge', '快递充值', 'Express recharge', 'PlusCircleOutlined'),
    page(
      113,
      '/deliveryAccountDetails',
      'ExpressAccountDetails',
      '快递账户明细',
      'Express account details',
      'AccountBookOutlined',
      {
        buttons: [
          b('express-account:export', '导出', 'Export'),
          b('express-account:adjust', '手工调账', 'Manual adjustment'),
        ],
      },
    ),
    page(
      114,
      '/deliveryBalanceTotal',
      'ExpressBalanceTotal',
      '快递余额汇总',
      'Express balance summary',
      'FundOutlined',
    ),
    page(115, '/abnormalBilling', 'AbnormalBilling', '异常计费', 'Abnormal billing', 'ExceptionOutlined'),
    page(
      116,
      '/expressBounceBill',
      'ExpressBounceBill',
      '快递异常账单',
      'Express bounce bills',
      'ExceptionOutlined',
      { buttons: [b('express-bounce-bill:save', '新增', 'Add')] },
    ),
    page(
      117,
      '/deliveryAccountLog',
      'ExpressAccountLog',
      '快递账户日志',
      'Express account log',
      'HistoryOutlined',
    ),
  ]),
  group(5, '/area-addresses', '地址管理', 'Addresses', 'EnvironmentOutlined', [
    page(
      50,
      '/addressmanagement',
      'TruckAddressBook',
      '卡车地址簿',
      'Truck address book',
      'EnvironmentOutlined',
      {
        buttons: [
          b('address:save', '保存', 'Save'),
          b('address:delete', '删除', 'Delete'),
          b('address:import', '导入', 'Import'),
        ],
      },
    ),
    page(
      51,
      '/addressList',
      'ExpressAddressBook',
      '快递地址簿',
      'Express address book',
      'EnvironmentOutlined',
      {
        buttons: [
          b('express-address:save', '保存', 'Save'),
          b('express-address:delete', '删除', 'Delete'),
          b('express-address:import', '导入', 'Import'),
        ],
      },
    ),
  ]),
  group(6, '/area-work-orders', '工单', 'Work orders', 'ToolOutlined', [
    page(60, '/workOrderList', 'TruckWorkOrderList', '卡车工单', 'Truck work orders', 'ToolOutlined', {
      buttons: [b('work-order:resolve', '处理', 'Resolve')],
    }),
    page(61, '/work-order-copy', 'TruckWorkOrderDetail', '工单详情', 'Work order', 'FileSearchOutlined', {
      is_show: 0,
    }),
    page(
      62,
      '/expressWorkOrderList',
      'ExpressWorkOrderList',
      '快递工单',
      'Express work orders',
      'ToolOutlined',
      { buttons: [b('express-work-order:resolve', '处理', 'Resolve')] },
    ),
    page(
      63,
      '/expressWorkorderoperate',
      'ExpressWorkOrderDetail',
      '快递工单处理',
      'Express work order',
      'FileSearchOutlined',
      {
        is_show: 0,
      },
    ),
  ]),
  group(7, '/area-customers', '客户与员工管理', 'Customers & staff', 'TeamOutlined', [
    page(70, '/branchManagement', 'BranchManagement', '分公司管理', 'Branch offices', 'ApartmentOutlined', {
      permissions: ADMIN_EDITOR,
      buttons: [b('branch:save', '保存', 'Save'), b('branch:status', '启用/禁用', 'Enable / disable')],
    }),
    page(
      71,
      '/general-customer-management',
      'AgentCustomerManagement',
      '代理客户管理',
      'Agent customers',
      'UserSwitchOutlined',
      { buttons: CUSTOMER_BUTTONS },
    ),
    page(
      72,
      '/directCustomerManagement',
      'DirectCustomerManagement',
      '直客管理',
      'Direct customers',
      'UserOutlined',
      { buttons: CUSTOMER_BUTTONS },
    ),
    page(73, '/allCustomer', 'AllCustomers', '全部客户', 'All customers', 'TeamOutlined', {
      buttons: CUSTOMER_BUTTONS,
    }),
    page(
      74,
      '/expressBranchManagement',
      'ExpressBranchManagement',
      '快递分公司管理',
      'Express branch offices',
      'ApartmentOutlined',
      {
        permissions: ADMIN_EDITOR,
        buttons: [b('branch:save', '保存', 'Save'), b('branch:status', '启用/禁用', 'Enable / disable')],
      },
    ),
    page(
      75,
      '/deliveryAgentCustomerManagement',
      'ExpressAgentCustomerManagement',
      '快递代理客户',
      'Express agent customers',
      'UserSwitchOutlined',
      { buttons: CUSTOMER_BUTTONS },
    ),
    page(
      76,
      '/deliveryDirectCustomerManagement',
      'ExpressDirectCustomerManagement',
      '快递直客',
      'Express direct customers',
      'UserOutlined',
      { buttons: CUSTOMER_BUTTONS },
    ),
    page(
      77,
      '/expressAllCustomer',
      'ExpressAllCustomers',
      '快递全部客户',
      'All express customers',
      'TeamOutlined',
      { buttons: CUSTOMER_BUTTONS },
    ),
    page(78, '/staff-management', 'StaffManagement', '员工管理', 'Staff', 'IdcardOutlined', {
      permissions: ADMIN_EDITOR,
      buttons: [b('staff:save', '保存', 'Save'), b('staff:status', '启用/禁用', 'Enable / disable')],
    }),
  ]),
  group(9, '/area-reports', '分析报表', 'Reports', 'BarChartOutlined', [
    page(90, '/dashboard', 'TruckDashboard', '卡车看板', 'Truck dashboard', 'DashboardOutlined'),
    page(91, '/truckHome', 'TruckHome', '卡车首页', 'Truck overview', 'CarOutlined'),
    page(92, '/expressDashboard', 'ExpressDashboard', '快递看板', 'Express dashboard', 'DashboardOutlined'),
    page(93, '/expressHome', 'ExpressHome', '快递首页', 'Express overview', 'SendOutlined', {
      permissions: ADMIN_EDITOR,
    }),
    page(94, '/financialStatements', 'FinancialStatements', '数据报表', 'Data reports', 'LineChartOutlined', {
      permissions: ADMIN_EDITOR,
    }),
  ]),
  group(10, '/area-site', '站点配置', 'Site', 'SettingOutlined', [
    page(
      100,
      '/site-configuration',
      'SiteConfiguration',
      '站点配置',
      'Site configuration',
      'SettingOutlined',
      {
        permissions: ADMIN_EDITOR,
        buttons: [b('site:save', '保存', 'Save')],
      },
    ),
    page(
      101,
      '/notificationAnnouncement',
      'NoticeManagement',
      '公告管理',
      'Notice management',
      'NotificationOutlined',
      {
        permissions: ADMIN_EDITOR,
        buttons: [b('notice:save', '保存', 'Save'), b('notice:delete', '删除', 'Delete')],
      },
    ),
    // The platform's own page: granted only within the default tenant (PLATFORM_MENU_IDS).
    page(140, '/tenantManagement', 'TenantManagement', '租户管理', 'Tenants', 'ClusterOutlined', {
      permissions: ['admin'],
      buttons: [
        b('tenant:save', '新增/编辑', 'Add / edit'),
        b('tenant:status', '启用/停用', 'Enable / disable'),
      ],
    }),
    page(141, '/featureUpdates', 'ChangelogManagement', '功能更新', 'Feature updates', 'RocketOutlined', {
      permissions: ADMIN_EDITOR,
      buttons: [b('changelog:save', '保存', 'Save'), b('changelog:delete', '删除', 'Delete')],
    }),
  ]),
  group(11, '/area-rights', '权限管理', 'Rights', 'SafetyCertificateOutlined', [
    page(120, '/basicSettings', 'RoleManagement', '角色管理', 'Roles', 'SafetyCertificateOutlined', {
      permissions: ADMIN_EDITOR,
      buttons: [b('role:save', '保存', 'Save'), b('role:delete', '删除', 'Delete')],
    }),
    page(121, '/operationLog', 'OperationLog', '操作日志', 'Operation log', 'FileSearchOutlined', {
      buttons: [b('operation-log:export', '导出', 'Export')],
    }),
  ]),
  group(12, '/area-tariffs', '运价规则', 'Tariffs', 'ProfileOutlined', [
    page(130, '/productManagement', 'TruckProducts', '卡车产品', 'Truck products', 'AppstoreOutlined'),
    page(131, '/freightRule', 'FreightRules', '运价规则', 'Freight rules', 'ProfileOutlined'),
    page(
      132,
      '/expressProductManagement',
      'ExpressProducts',
      '快递产品',
      'Express products',
      'AppstoreOutlined',
    ),
    page(133, '/expressChannelManag', 'ExpressChannels', '快递渠道', 'Express channels', 'NodeIndexOutlined'),
    page(134, '/partitionTable', 'ZoneCharts', '分区表', 'Zone charts', 'TableOutlined', {
      permissions: ADMIN_EDITOR,
    }),
    page(135, '/channelPrice', 'ChannelPrices', '渠道价格', 'Channel prices', 'DollarOutlined', {
      permissions: ADMIN_EDITOR,
    }),
    page(136, '/setPrice', 'SetPrice', '设置价格', 'Set prices', 'EditOutlined', {
      permissions: ADMIN_EDITOR,
      keepAlive: false,
    }),
    // Carrier accounts (UPS, Karrio) whose APIs price, label and track what channels they serve.
    page(
      137,
      '/carrierAccounts',
      'CarrierAccounts',
      '承运商账号',
      'Carrier accounts',
      'CloudServerOutlined',
      {
        permissions: ADMIN_EDITOR,
        buttons: [
          b('carrier:save', '新增/编辑', 'Add / edit'),
          b('carrier:delete', '删除', 'Delete'),
          b('carrier:test', '测试连接', 'Test connection'),
        ],
      },
    ),
  ]),
  // Integrations (ids 150-159): API keys and webhooks.
  group(150, '/area-integrations', '开放接口', 'Integrations', 'ApiOutlined', [
    page(151, '/apiKeys', 'ApiKeys', 'API 密钥', 'API keys', 'KeyOutlined'),
    page(152, '/webhooks', 'Webhooks', 'Webhook', 'Webhooks', 'SendOutlined'),
  ]),
  page(13, '/downloadCenter', 'DownloadCenter', '下载中心', 'Download center', 'DownloadOutlined'),
  // Every signed-in user reads their own notices here, so it carries no role restriction and sits at the
  // top level (docs/decisions.md, "The notice list is every user's").
  page(102, '/notification', 'NoticeList', '公告列表', 'Notices', 'BellOutlined'),
  page(14, '/profile', 'Profile', '个人中心', 'Personal center', 'UserOutlined', { is_show: 0 }),
  page(15, '/personalCenter/personalCenter', 'Profile', '个人中心', 'Personal center', 'UserOutlined', {
    is_show: 0,
  }),
];

/** Every menu item, depth first, with its parent id. */
export function flattenMenu(
  items: readonly MenuDefinition[] = MENU,
  parentId: number | null = null,
): (MenuDefinition & { parentId: number | null })[] {
  return items.flatMap((item) => [{ ...item, parentId }, ...flattenMenu(item.children ?? [], item.id)]);
}

/** Menu ids whose badges show waiting recharge reviews (SPEC section 2). */
export const BADGE_MENU = { truckDot: 8, expressDot: 110, truckCount: 26, expressCount: 122 } as const;

/** Items every signed-in user gets whatever the role: home, personal centre, download centre, notices. */
export const ALWAYS_GRANTED_MENU_IDS: readonly number[] = [1, 13, 14, 15, 102];

/** Pages of the platform itself (managing tenants): a grant of them counts only in the default tenant. */
export const PLATFORM_MENU_IDS: readonly number[] = [140];
