import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Asks for the reason an action needs (reject, cancel, the abnormal states) before it goes ahead. */
export function ReasonDialog({
  open,
  title,
  required = true,
  onCancel,
  onSubmit,
}: {
  open: boolean;
  title: string;
  required?: boolean;
  onCancel: () => void;
  onSubmit: (reason: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onCancel}
      onOk={() => form.submit()}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'reason-ok' } as never}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={async ({ reason }) => {
          setBusy(true);
          try {
            await onSubmit(reason ?? '');
          } finally {
            setBusy(false);
          }
        }}
      >
        <Form.Item
          name="reason"
          label={t('order.reason')}
          rules={required ? [{ required: true, whitespace: true, message: t('order.reasonTip') }] : []}
        >
          <Input.TextArea rows={3} maxLength={500} showCount data-testid="reason-input" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
