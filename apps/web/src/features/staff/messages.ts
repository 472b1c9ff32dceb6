import { defineMessages } from '../../i18n/define.ts';

/** Strings of the staff page that live with it (the rest are in the shared tables). */
export const staffMessages = defineMessages(
  {
    'staff.emptyList': '员工账号在这里列出;新增员工并分配角色后,对方即可用邮箱登录',
    'staff.noMatch': '没有符合筛选条件的员工',
  },
  {
    'staff.emptyList':
      'Staff accounts show here; add a colleague and give them roles, and they sign in with their e-mail',
    'staff.noMatch': 'No staff member matches these filters',
  },
);
