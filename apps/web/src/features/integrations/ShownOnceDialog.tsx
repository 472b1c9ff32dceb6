import { Alert, App, Button, Input, Modal, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A credential shown whole once, right after it is made (an API key, a webhook's signing secret): the
 * dialog closes only by its button, and nothing keeps the value once it has closed.
 */
export function ShownOnceDialog(props: {
  /** The value to show; null keeps the dialog closed. */
  value: string | null;
  title: string;
  warning: string;
  copyLabel: string;
  /** Test ids: `<testId>-secret`, `<testId>-copy`, `<testId>-done`. */
  testId: string;
  onDone(): void;
  /** Fields shown above the value (an API key's id). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { value, testId } = props;
  const copy = (text: string) =>
    navigator.clipboard?.writeText(text).then(
      () => message.success(t('apiKeys.copied')),
      () => message.warning(t('apiKeys.copyFailed')),
    ) ?? message.warning(t('apiKeys.copyFailed'));
  return (
    <Modal
      open={value !== null}
      title={props.title}
      closable={false}
      maskClosable={false}
      keyboard={false}
      footer={
        <Button type="primary" onClick={props.onDone} data-testid={`${testId}-done`}>
          {t('apiKeys.done')}
        </Button>
      }
      width={640}
      destroyOnHidden
    >
      {value !== null ? (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Alert type="warning" showIcon message={props.warning} />
          {props.children}
          <Space.Compact style={{ width: '100%' }}>
            <Input
              readOnly
              value={value}
              onFocus={(e) => e.target.select()}
              style={{ fontFamily: 'monospace' }}
              data-testid={`${testId}-secret`}
            />
            <Button type="primary" onClick={() => copy(value)} data-testid={`${testId}-copy`}>
              {props.copyLabel}
            </Button>
          </Space.Compact>
        </Space>
      ) : null}
    </Modal>
  );
}
