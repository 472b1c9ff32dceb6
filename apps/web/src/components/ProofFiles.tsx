import { CloseOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReportError } from '../hooks/useReportError.ts';
import { upload } from '../lib/http.ts';
import { fileNameOf as fileName, PrivateFileLink } from './PrivateFile.tsx';

const ACCEPT = '.pdf,.png,.jpg,.jpeg,.webp';

/** Proof files as links that load with the session (images preview, PDFs download); a dash when none. */
export function FileLinks({ urls, testId }: { urls: string[]; testId?: string }) {
  if (urls.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Space size={[12, 0]} wrap data-testid={testId}>
      {urls.map((url) => (
        <PrivateFileLink key={url} url={url} />
      ))}
    </Space>
  );
}

/**
 * Up to `max` documents (PDF or images), each uploaded as it is chosen; the value is their URLs. A
 * file can be taken off again before the form is sent.
 */
export function DocumentsInput({
  value = [],
  onChange,
  max,
  testId,
}: {
  value?: string[];
  onChange?: (urls: string[]) => void;
  max: number;
  testId?: string;
}) {
  const { t } = useTranslation();
  const reportError = useReportError();
  const [busy, setBusy] = useState(false);
  return (
    <Space orientation="vertical" size={4}>
      <Upload
        showUploadList={false}
        accept={ACCEPT}
        disabled={value.length >= max}
        customRequest={async ({ file }) => {
          setBusy(true);
          try {
            const [url] = await upload<string[]>('/common/upload/documents', file as File);
            if (url) onChange?.([...value, url].slice(0, max));
          } catch (error) {
            reportError(error);
          } finally {
            setBusy(false);
          }
        }}
      >
        <Button icon={<UploadOutlined />} loading={busy} disabled={value.length >= max} data-testid={testId}>
          {t('upload.documents', { max })}
        </Button>
      </Upload>
      {value.map((url) => (
        <Space key={url} size={4}>
          <PrivateFileLink url={url} />
          <Button
            type="text"
            size="small"
            icon={<CloseOutlined />}
            aria-label={t('upload.removeFile', { name: fileName(url) })}
            onClick={() => onChange?.(value.filter((u) => u !== url))}
          />
        </Space>
      ))}
    </Space>
  );
}

/** One document, for forms whose API takes a single URL (or null). */
export function DocumentInput({
  value,
  onChange,
  testId,
}: {
  value?: string | null;
  onChange?: (url: string | null) => void;
  testId?: string;
}) {
  return (
    <DocumentsInput
      value={value ? [value] : []}
      onChange={(urls) => onChange?.(urls[0] ?? null)}
      max={1}
      testId={testId}
    />
  );
}
