import { defineMessages } from '../../i18n/define.ts';

/** Strings of the operation log that live with it (the rest are in the shared tables). */
export const oplogMessages = defineMessages(
  {
    'oplog.emptyList': '员工与客户在门户中的操作(保存、审核、导出、权限变更等)都会记录在这里',
    'oplog.noMatch': '没有符合筛选条件的操作记录',
  },
  {
    'oplog.emptyList':
      'What staff and customers do in the portal (saves, reviews, exports, changes of rights) is recorded here',
    'oplog.noMatch': 'No operation matches these filters',
  },
);
