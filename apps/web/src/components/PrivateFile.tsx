import { LoadingOutlined, PaperClipOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Image, Skeleton, Space, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveBlob } from '../lib/http.ts';
import { fileQuery, useObjectUrl, usePrivateFile } from './private-file.ts';

/** A private image (payment screenshot, licence, avatar): a placeholder while it loads, a line if it cannot. */
export function PrivateImage({
  url,
  width,
  height,
  alt = '',
  testId,
}: {
  url: string;
  width?: number;
  height?: number;
  alt?: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const { objectUrl, loading, failed } = usePrivateFile(url);
  if (failed)
    return (
      <Typography.Text type="danger" data-testid={testId && `${testId}-error`}>
        {t('upload.loadFailed')}
      </Typography.Text>
    );
  if (loading || !objectUrl)
    return (
      <Skeleton.Image
        active
        style={{ width: width ?? 96, height: height ?? 96 }}
        aria-label={t('upload.loading')}
        data-testid={testId && `${testId}-loading`}
      />
    );
  return <Image src={objectUrl} width={width} height={height} alt={alt} data-testid={testId} />;
}

/** The name a file link shows: the last part of its URL. */
export const fileNameOf = (url: string) => decodeURIComponent(url.split('/').pop() ?? url);

/**
 * A link to a private file: fetched with the session when clicked, an image opens in a preview, any
 * other file (PDFs included) is saved under the name the server gives it.
 */
export function PrivateFileLink({
  url,
  children,
  testId,
}: {
  url: string;
  children?: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');
  const [preview, setPreview] = useState<Blob>();
  const previewUrl = useObjectUrl(preview);
  const open = async () => {
    setState('loading');
    try {
      const file = await queryClient.fetchQuery(fileQuery(url));
      setState('idle');
      if (file.blob.type.startsWith('image/')) setPreview(file.blob);
      else saveBlob(file.blob, file.name);
    } catch {
      setState('failed');
    }
  };
  return (
    <Space size={4}>
      <Typography.Link
        onClick={open}
        disabled={state === 'loading'}
        aria-busy={state === 'loading'}
        data-testid={testId}
      >
        {state === 'loading' ? <LoadingOutlined /> : <PaperClipOutlined />} {children ?? fileNameOf(url)}
      </Typography.Link>
      {state === 'failed' ? (
        <Typography.Text type="danger" data-testid={testId && `${testId}-error`}>
          {t('upload.loadFailed')}
        </Typography.Text>
      ) : null}
      {previewUrl ? (
        <Image
          style={{ display: 'none' }}
          src={previewUrl}
          preview={{ open: true, onOpenChange: (open) => !open && setPreview(undefined) }}
        />
      ) : null}
    </Space>
  );
}
