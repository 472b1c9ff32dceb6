import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { getFile } from '../lib/http.ts';

/** Files fetched once are kept a few minutes: a list re-rendering does not fetch them again. */
export const fileQuery = (url: string) => ({
  queryKey: ['private-file', url],
  queryFn: () => getFile(url),
  staleTime: 5 * 60_000,
  gcTime: 5 * 60_000,
  retry: false,
});

/** An object URL for a fetched file, revoked when the component lets go of it. */
export function useObjectUrl(blob: Blob | undefined): string | undefined {
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
