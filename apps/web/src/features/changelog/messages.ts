import { defineMessages } from '../../i18n/define.ts';

export const changelogMessages = defineMessages(
  {
    'changelog.new': '新增更新',
    'changelog.emptyList': '发布的功能更新会在这里列出,并在首页告诉每位用户有什么新变化',
    'changelog.edit': '编辑更新',
    'changelog.title': '标题',
    'changelog.body': '内容',
    'changelog.bodyTip': '纯文本;空行分段,以“- ”开头的行显示为列表',
    'changelog.publishedAt': '发布时间',
    'changelog.scheduled': '待发布',
    'changelog.published': '已发布',
    'changelog.empty': '暂无功能更新',
    'changelog.deleteConfirm': '删除更新“{{title}}”?此操作不能撤销。',
    'changelog.unread': '有新的功能更新',
  },
  {
    'changelog.new': 'New update',
    'changelog.emptyList':
      'Updates you publish are listed here and tell every user on the home page what is new',
    'changelog.edit': 'Edit update',
    'changelog.title': 'Title',
    'changelog.body': 'Content',
    'changelog.bodyTip': 'Plain text: a blank line starts a paragraph, lines starting with "- " make a list',
    'changelog.publishedAt': 'Published at',
    'changelog.scheduled': 'Scheduled',
    'changelog.published': 'Published',
    'changelog.empty': 'No feature updates yet',
    'changelog.deleteConfirm': 'Delete the update "{{title}}"? This cannot be undone.',
    'changelog.unread': 'New feature updates',
  },
);
