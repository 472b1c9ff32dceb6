import { App } from 'antd';
import DOMPurify from 'dompurify';
import { createElement, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../lib/http.ts';
import { type Notice, noticeApi } from './api.ts';

type PopKind = 'info' | 'success' | 'warning' | 'error';
const POP_KINDS: readonly string[] = ['info', 'success', 'warning', 'error'];

/** The popup's kind from the notice's `pop_theme`; system notices (no theme) pop up as info. */
export function popKind(notice: Pick<Notice, 'pop_theme'>): PopKind {
  return POP_KINDS.includes(notice.pop_theme) ? (notice.pop_theme as PopKind) : 'info';
}

/** A notice's HTML, sanitised again in the browser (it was on the server when written). */
export function noticeHtml(content: string) {
  return { __html: DOMPurify.sanitize(content) };
}

/** SPEC section 2: where a notice's view button leads, by its order type. */
export function noticeTarget(notice: Notice): string {
  const sn = encodeURIComponent(notice.order_sn ?? '');
  switch (notice.order_type) {
    case 1:
      return `/orderList?id=${sn}`;
    case 2:
      // Express work orders (numbered `EWO…`) have their own page.
      return notice.order_sn?.startsWith('EWO')
        ? `/expressWorkorderoperate?sn=${sn}`
        : `/work-order-copy?sn=${sn}`;
    case 3:
      return `/accountDetails?id=${sn}`;
    case 4:
      return `/expressOrderList?sn=${sn}`;
    case 5:
      return `/abnormalBilling?sn=${sn}`;
    default:
      return `/notification?content=${encodeURIComponent(notice.title)}&type=2`;
  }
}

/**
 * On load: type 1 notices as staggered toasts at the bottom right, others as 700px dialogs (SPEC
 * section 2). The server hands each notice out once, so the call is made once per session and its
 * answer is always shown: nothing may cancel it half way (a re-render, StrictMode's second run).
 */
export function useNoticePopups(token: string | null) {
  const { notification, modal, message } = App.useApp();
  const navigate = useNavigate();
  const { t } = useTranslation();
  // The latest toast, dialog, router and wording, read when the answer arrives.
  const latest = useRef({ notification, modal, message, navigate, t });
  latest.current = { notification, modal, message, navigate, t };
  const fetchedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!token || fetchedFor.current === token) return;
    fetchedFor.current = token;
    // A notice stays unread until the user has seen it go: its toast closed or its dialog dismissed.
    const markRead = (id: number) => void noticeApi.read(id).catch(() => undefined);
    noticeApi
      .userNotices()
      .then(({ list }) => {
        list.forEach((notice, index) => {
          const { notification, modal, navigate, t } = latest.current;
          // Notices carry HTML; it was sanitised on write and is sanitised again here before it is shown.
          const html = noticeHtml(notice.content);
          const kind = popKind(notice);
          if (notice.type === 1) {
            window.setTimeout(() => {
              const key = `notice-${notice.id}`;
              notification[kind]({
                key,
                placement: 'bottomRight',
                duration: 5,
                onClose: () => markRead(notice.id),
                title: notice.title,
                // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with DOMPurify (noticeHtml)
                description: createElement('div', { dangerouslySetInnerHTML: html }),
                actions: createElement(
                  'a',
                  {
                    onClick: () => {
                      notification.destroy(key);
                      navigate(noticeTarget(notice));
                    },
                  },
                  t('shell.view'),
                ),
              });
            }, index * 500);
          } else {
            modal[kind]({
              width: 700,
              title: notice.title,
              style: { top: `${index + 15}vh` },
              // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with DOMPurify (noticeHtml)
              content: createElement('div', { style: { minHeight: 300 }, dangerouslySetInnerHTML: html }),
              okText: t('shell.ok'),
              afterClose: () => markRead(notice.id),
            });
          }
        });
      })
      .catch((error: unknown) => {
        // SPEC section 8: a refused notice load shows the server's message.
        if (error instanceof ApiError && !error.notified) void latest.current.message.error(error.message);
      });
  }, [token]);
}
