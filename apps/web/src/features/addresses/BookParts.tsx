import { useQuery } from '@tanstack/react-query';
import { Alert, App, Form, type FormInstance, Modal, Row, Select } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../context/session.tsx';
import { requiredRule } from '../../lib/form-rules.ts';
import { ApiError, applyFieldErrors } from '../../lib/http.ts';
import { type AddressOwner, addressApi } from './api.ts';

/*
 * What the truck book (`/addressmanagement`) and the express book (`/addressList`) share; the fields
 * and columns, which differ, stay in each book's own page and dialog.
 */

/** Whose books the caller sees: a customer has one, its own; staff and parents see several. */
export function useBookOwners() {
  const { userInfo } = useSession();
  const staff = userInfo?.identity === 'employee';
  const owners = useQuery({ queryKey: ['address-owners'], queryFn: addressApi.owners }).data?.list ?? [];
  // With several books each row is told whose it is.
  return { staff, owners, manyBooks: staff || owners.length > 1 };
}

/** A row's action (the default mark, a delete): its toast and a fresh list, or the refusal's message. */
export function useRowAction(refetch: () => unknown) {
  const { message } = App.useApp();
  return async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      message.success(done);
      void refetch();
    } catch (error) {
      if (error instanceof ApiError && !error.notified) message.error(error.message);
    }
  };
}

/** The list's filter by whose book, for callers who see several. */
export function OwnerFilter({ owners }: { owners: AddressOwner[] }) {
  const { t } = useTranslation();
  return (
    <Form.Item name="organisationId" label={t('addresses.organisation')}>
      <Select
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        style={{ width: 200 }}
        placeholder={t('common.all')}
        options={owners.map((o) => ({ value: o.id, label: o.name }))}
      />
    </Form.Item>
  );
}

/** Whose book an entry goes to; staff belong to no organisation, so they must choose one. */
export function OwnerField({
  owners,
  required,
  testId,
}: {
  owners: AddressOwner[];
  required: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="organisationId"
      label={t('addresses.organisation')}
      rules={required ? [requiredRule(t('addresses.organisation'))] : []}
    >
      <Select
        showSearch={{ optionFilterProp: 'label' }}
        allowClear={!required}
        placeholder={t('common.select')}
        options={owners.map((o) => ({
          value: o.id,
          label: `${o.name} · ${t(`identity.${o.type}`)}`,
        }))}
        data-testid={testId}
      />
    </Form.Item>
  );
}

/**
 * The dialog an entry of either book is edited in: the English-only tip, the book's fields (`children`,
 * in a row of columns), and a save that sends the checked values with `submit` and puts the server's
 * field errors on the form. `testId` prefixes the form's and the save button's test ids.
 */
export function BookDialog<V>({
  form,
  title,
  tip,
  initialValues,
  testId,
  submit,
  onClose,
  onSaved,
  children,
}: {
  form: FormInstance<V>;
  title: string;
  tip: string;
  initialValues: object;
  testId: string;
  submit: (values: V) => Promise<unknown>;
  onClose: () => void;
  onSaved: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);

  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await submit(values);
      message.success(t('common.saved'));
      onSaved();
    } catch (error) {
      if (!applyFieldErrors(error, form.setFields) && error instanceof ApiError) message.error(error.message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      width={760}
      title={title}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': `${testId}-save` }}
      destroyOnHidden
    >
      <Alert type="info" showIcon title={tip} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" initialValues={initialValues} data-testid={`${testId}-form`}>
        <Row gutter={12}>{children}</Row>
      </Form>
    </Modal>
  );
}
