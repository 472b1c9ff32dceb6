import { SettingOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReportError } from '../../hooks/useReportError.ts';
import { type ExpressOptions, expressQuoteApi } from './api.ts';

const CONFIG_KEY = ['express-quotation-config'];

/**
 * The quote page's settings: which of the channels open to the user its quotes price. The server keeps
 * the choice with the user's quotation settings and leaves the unticked channels out of their quotes.
 */
export function ChannelSettings({ channels }: { channels: ExpressOptions['channels'] }) {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const { message } = App.useApp();
  const reportError = useReportError();
  const config = useQuery({ queryKey: CONFIG_KEY, queryFn: expressQuoteApi.config });
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState<number[]>([]);
  const [saving, setSaving] = useState(false);
  const hidden = config.data?.quotation.hiddenChannelIds ?? [];
  const hiddenHere = channels.filter((c) => hidden.includes(c.channelId)).length;

  const start = () => {
    setShown(channels.map((c) => c.channelId).filter((id) => !hidden.includes(id)));
    setOpen(true);
  };
  const save = async () => {
    if (!config.data) return;
    setSaving(true);
    try {
      // Channels not offered here (closed to the user for now) keep the choice made before.
      const elsewhere = hidden.filter((id) => !channels.some((c) => c.channelId === id));
      const hiddenChannelIds = [
        ...elsewhere,
        ...channels.map((c) => c.channelId).filter((id) => !shown.includes(id)),
      ];
      await expressQuoteApi.saveConfig({ ...config.data.quotation, hiddenChannelIds });
      await config.refetch();
      message.success(t('expressQuote.channelSettingsSaved'));
      setOpen(false);
    } catch (error) {
      reportError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Button
        size="small"
        icon={<SettingOutlined />}
        disabled={!config.data || channels.length === 0}
        onClick={start}
        data-testid="quote-channel-settings"
      >
        {hiddenHere > 0
          ? t('expressQuote.channelSettingsHidden', { count: hiddenHere })
          : t('expressQuote.channelSettings')}
      </Button>
      {config.isError ? (
        <Typography.Text type="danger">{t('expressQuote.channelSettingsFailed')}</Typography.Text>
      ) : null}
      <Modal
        open={open}
        title={t('expressQuote.channelSettings')}
        onCancel={() => setOpen(false)}
        onOk={() => void save()}
        okButtonProps={{ disabled: shown.length === 0, loading: saving }}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
      >
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary">{t('expressQuote.channelSettingsTip')}</Typography.Paragraph>
          <Checkbox.Group
            value={shown}
            onChange={(ids) => setShown(ids as number[])}
            style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
            options={channels.map((c) => ({
              value: c.channelId,
              label: `${en ? c.nameEn || c.name : c.name} (${c.code}) · ${en ? c.productNameEn || c.productName : c.productName}`,
            }))}
          />
          {shown.length === 0 ? (
            <Alert type="warning" showIcon title={t('expressQuote.channelSettingsKeepOne')} />
          ) : null}
        </Space>
      </Modal>
    </>
  );
}
