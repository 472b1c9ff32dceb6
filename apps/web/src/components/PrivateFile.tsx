import { LoadingOutlined, PaperClipOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Avatar, Image, Skeleton, Space, Typography } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getFile, saveBlob } from '../lib/http.ts';

/** Files fetched once are kept a few minutes: a list re-rendering does not fetch them again. */
const fileQuery = (url: string) => ({
  queryKey: ['private-file', url],
  queryFn: () => getFile(url),
  staleTime: 5 * 60_000,
  gcTime: 5 * 60_000,
  retry: false,
});

/** An object URL for a fetched file, revoked when the component lets go of it. */
function useObjectUrl(blob: Blob | undefined): string | undefined {
  const [objectUrl, setObjectUrl] = useState<string>();
  useEffect(() => {
    if (!blob) {
      setObjectUrl(undefined);
      return;
    }
    const next = URL.createObjectURL(blob);
    setObjectUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return objectUrl;
}

/**
 * An uploaded file loaded with the session (files are private to whoever may see their record), as an
 * object URL for an `<img>` or an avatar; nothing while `url` is empty.
 */
export function usePrivateFile(url: string | null | undefined) {
  const query = useQuery({ ...fileQuery(url ?? ''), enabled: Boolean(url) });
  const objectUrl = useObjectUrl(query.data?.blob);
  return {
    objectUrl,
    loading: Boolean(url) && (query.isLoading || (query.isSuccess && !objectUrl)),
    failed: query.isError,
  };
}

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

/** The user's avatar, an upload only its owner loads: the person icon while it loads or if it cannot. */
export function PrivateAvatar({ url, size }: { url: string | null | undefined; size: 'small' | number }) {
  const { objectUrl } = usePrivateFile(url);
  return <Avatar size={size} src={objectUrl} icon={<UserOutlined />} />;
}
