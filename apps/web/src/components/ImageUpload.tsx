import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Image, Space, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReportError } from '../hooks/useReportError.ts';
import { upload } from '../lib/http.ts';
import { PrivateImage } from './PrivateFile.tsx';

const MAX_BYTES = 2 * 1024 * 1024;

const previewStyle = { objectFit: 'contain', border: '1px solid #eee' } as const;

/**
 * One image, under 2 MB (SPEC section 5); choosing another replaces it, removing asks first. The value
 * is the URL the server answered with. Uploads are private to whoever may see their record, so a saved
 * image is loaded with the session, and one just chosen is shown from the file itself (a registering
 * shipper has no session to load it with). Branding images are `publicImage`: plain URLs.
 */
export function ImageUpload({
  value,
  onChange,
  testId,
  publicImage = false,
}: {
  value?: string | null;
  onChange?: (url: string | null) => void;
  testId?: string;
  publicImage?: boolean;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const [busy, setBusy] = useState(false);
  const [chosen, setChosen] = useState<{ url: string; preview: string }>();
  // The local preview stands for the value it was uploaded as, and goes with it.
  useEffect(() => () => chosen && URL.revokeObjectURL(chosen.preview), [chosen]);
  const localPreview = chosen && chosen.url === value ? chosen.preview : null;
  return (
    <Space align="start">
      {value && localPreview ? (
        <Image src={localPreview} width={96} height={96} style={previewStyle} />
      ) : value && publicImage ? (
        <Image src={value} width={96} height={96} style={previewStyle} />
      ) : value ? (
        <PrivateImage url={value} width={96} height={96} />
      ) : null}
      <Space orientation="vertical">
        <Upload
          accept="image/png,image/jpeg,image/gif,image/webp,image/x-icon"
          showUploadList={false}
          maxCount={1}
          beforeUpload={async (file) => {
            if (!file.type.startsWith('image/')) {
              message.error(t('upload.notImage'));
              return Upload.LIST_IGNORE;
            }
            if (file.size > MAX_BYTES) {
              message.error(t('validation.imageTooLarge'));
              return Upload.LIST_IGNORE;
            }
            setBusy(true);
            try {
              const [url] = await upload<string[]>('/common/upload/images', file);
              if (url) setChosen({ url, preview: URL.createObjectURL(file) });
              onChange?.(url ?? null);
            } catch (error) {
              reportError(error);
            } finally {
              setBusy(false);
            }
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={busy} data-testid={testId}>
            {t('register.upload')}
          </Button>
        </Upload>
        {value ? (
          <Button
            icon={<DeleteOutlined />}
            danger
            onClick={() =>
              modal.confirm({
                title: t('shell.dialogTitle'),
                content: t('upload.removeConfirm'),
                okText: t('shell.ok'),
                cancelText: t('shell.cancel'),
                onOk: () => {
                  onChange?.(null);
                  message.success(t('upload.removed'));
                },
                onCancel: () => {
                  message.info(t('upload.cancelled'));
                },
              })
            }
          >
            {t('common.delete')}
          </Button>
        ) : null}
      </Space>
    </Space>
  );
}
