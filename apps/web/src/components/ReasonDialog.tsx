import { Form, Input, Modal, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useReportError } from '../hooks/useReportError.ts';
import { requiredRule } from '../lib/form-rules.ts';

/**
 * Asks for the reason a step needs (rejecting an order or a work order, cancelling a bill, refusing a
 * quotation task) and only then goes ahead. Shown while mounted: the caller renders it when needed.
 * `field` is the API's name for the reason, so a refusal of it shows under the field; any other
 * refusal is a toast. `testId` names the dialog; its field and button add `-reason` and `-submit`.
 */
export function ReasonDialog({
  title,
  label,
  field = 'reason',
  maxLength = 500,
  summary,
  testId,
  onCancel,
  onSubmit,
}: {
  title: string;
  label: string;
  field?: string;
  maxLength?: number;
  summary?: ReactNode;
  testId: string;
  onCancel: () => void;
  onSubmit: (reason: string) => Promise<void>;
}) {
  const reportError = useReportError();
  const [form] = Form.useForm<Record<string, string>>();
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open
      title={title}
      onCancel={onCancel}
      onOk={() => form.submit()}
      confirmLoading={busy}
      okButtonProps={{ danger: true, 'data-testid': `${testId}-submit` } as never}
      modalRender={(node) => <div data-testid={`${testId}-dialog`}>{node}</div>}
    >
      {summary ? <Typography.Paragraph type="secondary">{summary}</Typography.Paragraph> : null}
      <Form
        form={form}
        layout="vertical"
        onFinish={async (values) => {
          setBusy(true);
          try {
            await onSubmit((values[field] ?? '').trim());
          } catch (error) {
            reportError(error, form);
          } finally {
            setBusy(false);
          }
        }}
      >
        <Form.Item name={field} label={label} rules={[requiredRule(label)]}>
          <Input.TextArea rows={3} maxLength={maxLength} showCount data-testid={`${testId}-reason`} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
