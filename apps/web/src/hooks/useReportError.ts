import { App, type FormInstance } from 'antd';
import { useCallback } from 'react';
import { ApiError, applyFieldErrors } from '../lib/http.ts';

/** True for the rejection `form.validateFields()` gives: the form already shows what is wrong. */
function isFormValidation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'errorFields' in error;
}

/**
 * The one way a page reports a failed call: a 400's fields go on the form, any other refusal is a toast
 * (unless the HTTP client already showed one), and anything else is a bug for the error log.
 */
export function useReportError() {
  const { message } = App.useApp();
  return useCallback(
    (error: unknown, form?: FormInstance) => {
      if (isFormValidation(error)) return;
      if (form && applyFieldErrors(error, form.setFields)) return;
      if (error instanceof ApiError) {
        if (!error.notified) void message.error(error.message);
        return;
      }
      globalThis.reportError(error);
    },
    [message],
  );
}
