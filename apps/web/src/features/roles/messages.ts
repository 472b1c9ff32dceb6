import { defineMessages } from '../../i18n/define.ts';

/** Strings of the roles page that live with it (the rest are in the shared tables). */
export const roleMessages = defineMessages(
  {
    'roles.emptyList': '角色决定员工能打开哪些页面、使用哪些按钮;新建角色后,在员工管理中分配给员工',
    'roles.noMatch': '没有符合筛选条件的角色',
  },
  {
    'roles.emptyList':
      'A role decides which pages and buttons staff may use; create one, then give it to staff on the Staff page',
    'roles.noMatch': 'No role matches these filters',
  },
);
