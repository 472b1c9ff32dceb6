import { App, Button, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReportError } from '../../hooks/useReportError.ts';
import { type CarrierAccountRow, carrierAccountApi } from './api.ts';
import { formatTime } from './labels.ts';

/**
 * A Karrio account's tracking webhook: whether the portal is registered at the account's Karrio server
 * (which then sends each tracker update as it happens), with the action that changes it. UPS parcels are
 * tracked by the portal's poll alone, so a UPS row shows a dash.
 */
export function WebhookCell({
  row,
  canSave,
  onChanged,
}: {
  row: CarrierAccountRow;
  canSave: boolean;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const [busy, setBusy] = useState(false);
  if (row.kind !== 'karrio') return <span data-testid={`carrier-webhook-${row.id}`}>-</span>;

  const act = (call: () => Promise<unknown>, done: string) => {
    setBusy(true);
    return call()
      .then(
        () => {
          void message.success(done);
          onChanged();
        },
        (error: unknown) => reportError(error),
      )
      .finally(() => setBusy(false));
  };
  const register = () =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t('carrierAccounts.webhook.registerConfirm', { label: row.label }),
      okText: t('carrierAccounts.webhook.register'),
      cancelText: t('shell.cancel'),
      okButtonProps: { 'data-testid': 'carrier-webhook-register-ok' },
      onOk: () =>
        act(() => carrierAccountApi.registerWebhook(row.id), t('carrierAccounts.webhook.registered')),
    });
  const remove = () =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t('carrierAccounts.webhook.removeConfirm', { label: row.label }),
      okText: t('carrierAccounts.webhook.remove'),
      cancelText: t('shell.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'carrier-webhook-remove-ok' },
      onOk: () => act(() => carrierAccountApi.removeWebhook(row.id), t('carrierAccounts.webhook.removed')),
    });

  return (
    <Space direction="vertical" size={0} data-testid={`carrier-webhook-${row.id}`}>
      {row.webhook ? (
        <>
          <Tag color="green">{t('carrierAccounts.webhook.on')}</Tag>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {formatTime(row.webhook.registeredAt)}
          </Typography.Text>
        </>
      ) : (
        <Tag>{t('carrierAccounts.webhook.off')}</Tag>
      )}
      {canSave ? (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            loading={busy}
            onClick={register}
            style={{ paddingInline: 0 }}
            data-testid={`carrier-webhook-register-${row.id}`}
          >
            {row.webhook ? t('carrierAccounts.webhook.again') : t('carrierAccounts.webhook.register')}
          </Button>
          {row.webhook ? (
            <Button
              type="link"
              size="small"
              danger
              disabled={busy}
              onClick={remove}
              data-testid={`carrier-webhook-remove-${row.id}`}
            >
              {t('carrierAccounts.webhook.remove')}
            </Button>
          ) : null}
        </Space>
      ) : null}
    </Space>
  );
}
