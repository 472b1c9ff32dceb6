import { MAX_PROOF_FILES } from '@freight/contracts/work-orders';
import { Button, Empty, Form, Input, Space, Tag, Typography, theme } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DocumentsInput, FileLinks } from '../../components/ProofFiles.tsx';
import { useSession } from '../../context/session.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { requiredRule } from '../../lib/form-rules.ts';
import { type WorkOrderInfo, workOrderApi } from './api.ts';

interface MessageForm {
  body: string;
  attachments?: string[];
}

/**
 * The conversation on a work order between the customer and staff. The reader's own side sits on the
 * right, as in a chat; staff messages are tinted whichever side reads them. Writing closes with the
 * work order.
 */
export function MessageThread({ workOrder, onSent }: { workOrder: WorkOrderInfo; onSent: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const reportError = useReportError();
  const { userInfo } = useSession();
  const mySide = userInfo?.identity === 'employee' ? 'staff' : 'owner';
  const [form] = Form.useForm<MessageForm>();
  const [busy, setBusy] = useState(false);

  const send = async (values: MessageForm) => {
    setBusy(true);
    try {
      await workOrderApi.message(workOrder.workOrderNo, values.body.trim(), values.attachments ?? []);
      form.resetFields();
      onSent();
    } catch (error) {
      reportError(error, form);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      {workOrder.messages.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workOrders.noMessages')} />
      ) : (
        <div data-testid="wo-messages" style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
          {workOrder.messages.map((m) => (
            <div
              key={m.id}
              data-testid={`wo-message-${m.id}`}
              data-side={m.side}
              style={{
                alignSelf: m.side === mySide ? 'flex-end' : 'flex-start',
                maxWidth: '85%',
                padding: '8px 12px',
                borderRadius: token.borderRadiusLG,
                border: `1px solid ${m.side === 'staff' ? token.colorPrimaryBorder : token.colorBorderSecondary}`,
                background: m.side === 'staff' ? token.colorPrimaryBg : token.colorFillQuaternary,
              }}
            >
              <Space size={8} wrap>
                <Tag color={m.side === 'staff' ? 'blue' : 'default'}>{t(`workOrders.side.${m.side}`)}</Tag>
                <Typography.Text strong>{m.author}</Typography.Text>
                <Typography.Text type="secondary">
                  {dayjs(m.createdAt).format('YYYY-MM-DD HH:mm')}
                </Typography.Text>
              </Space>
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: '6px 0 0' }}>
                {m.body}
              </Typography.Paragraph>
              {m.attachments.length > 0 ? <FileLinks urls={m.attachments} /> : null}
            </div>
          ))}
        </div>
      )}
      {workOrder.canMessage ? (
        <Form<MessageForm>
          form={form}
          layout="vertical"
          disabled={busy}
          onFinish={(values) => void send(values)}
        >
          <Form.Item name="body" label={t('workOrders.reply')} rules={[requiredRule(t('workOrders.reply'))]}>
            <Input.TextArea
              rows={3}
              maxLength={2000}
              showCount
              placeholder={t('workOrders.replyTip')}
              data-testid="wo-message-input"
            />
          </Form.Item>
          <Form.Item name="attachments">
            <DocumentsInput max={MAX_PROOF_FILES} testId="wo-message-attach" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="wo-message-send">
            {t('workOrders.send')}
          </Button>
        </Form>
      ) : (
        // A closed work order takes no more messages: say so instead of a dead form.
        <Typography.Text type="secondary" data-testid="wo-thread-closed">
          {t('workOrders.threadClosed')}
        </Typography.Text>
      )}
    </Space>
  );
}
