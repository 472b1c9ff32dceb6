import { OPLOG_ACTIONS, oplogActionLabel } from '@freight/contracts/oplog';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { auditedActions } from '../../plugins/audit.ts';

const f = useTestApp({ signIn: ['admin'] });

const CHINESE = /[\u4e00-\u9fff]/;

describe('operation log action names', () => {
  it('has words in both languages for every action a route of the server can log', () => {
    const actions = [...auditedActions()];
    // The whole app's routes registered their actions (sign-in, roles, orders, webhooks...).
    expect(actions.length).toBeGreaterThan(100);
    expect(actions).toEqual(expect.arrayContaining(['auth.setLocale', 'role.save', 'webhook.test']));
    const missing = actions.filter((a) => !Object.hasOwn(OPLOG_ACTIONS, a));
    expect(missing).toEqual([]);
    for (const action of actions) {
      const zh = oplogActionLabel(action, 'zh-CN');
      const en = oplogActionLabel(action, 'en-US');
      expect(zh, action).toMatch(CHINESE);
      expect(en, action).not.toMatch(CHINESE);
      expect(en, action).not.toBe(action);
    }
  });

  it('lists and exports each action in the reader’s language, the key kept for filtering', async () => {
    const admin = f.as('admin');
    await admin.ok('/api/admin/auth/setLocale', { locale: 'en' });
    const inEnglish = await admin.in('en-US').ok('/api/admin/operationLog/list', {
      action: 'auth.setLocale',
      page: 1,
      limit: 10,
    });
    expect(inEnglish.list[0]).toMatchObject({ action: 'auth.setLocale', actionLabel: 'Change language' });
    const inChinese = await admin.in('zh-CN').ok('/api/admin/operationLog/list', {
      action: 'auth.setLocale',
      page: 1,
      limit: 10,
    });
    expect(inChinese.list[0]).toMatchObject({ action: 'auth.setLocale', actionLabel: '切换语言' });

    const res = await admin.in('zh-CN').post('/api/admin/operationLog/export', { action: 'auth.setLocale' });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.getRow(1).getCell(3).value).toBe('操作');
    expect(sheet.getRow(2).getCell(3).value).toBe('切换语言');
  });
});
