import {
  CARRIER_BASE_URLS,
  CARRIER_CREDENTIAL_FIELDS,
  CARRIER_ENVIRONMENTS,
  CARRIER_KINDS,
  CARRIER_TIMEOUT_MS,
  type CarrierAccountCreateBody,
  type CarrierEnvironment,
  type CarrierKind,
  carrierAccountCreateBody,
  carrierCredentialSchemas,
  type KarrioCredentials,
  type UpsCredentials,
} from '@freight/contracts/carriers';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Form, type FormRule, Input, InputNumber, Modal, Radio, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useReportError } from '../../hooks/useReportError.ts';
import { requiredRule } from '../../lib/form-rules.ts';
import { ApiError } from '../../lib/http.ts';
import { type CarrierAccountRow, carrierAccountApi } from './api.ts';
import { accountRule, formatTime, useFieldLabel } from './labels.ts';

type CredentialField = (typeof CARRIER_CREDENTIAL_FIELDS)[CarrierKind][number];
type TypedCredentials = Partial<Record<CredentialField, string>>;

interface AccountForm {
  kind: CarrierKind;
  label: string;
  environment: CarrierEnvironment;
  baseUrl?: string;
  timeoutMs?: number | null;
  enabled: boolean;
  credentials?: TypedCredentials;
}

// The schemas the server checks the body with, taken apart so each field is checked as it is typed
// (the account's fields are the same in every kind's shape).
const accountShape = carrierAccountCreateBody.options[0].shape;
const credentialShapes: Record<CarrierKind, Record<string, Parameters<typeof accountRule>[0]>> = {
  ups: carrierCredentialSchemas.ups.shape,
  karrio: carrierCredentialSchemas.karrio.shape,
};

const filled = (value: string | undefined) => Boolean(value?.trim());

const upsCredentials = (typed: TypedCredentials): UpsCredentials => ({
  clientId: typed.clientId ?? '',
  clientSecret: typed.clientSecret ?? '',
  accountNumber: typed.accountNumber ?? '',
});
const karrioCredentials = (typed: TypedCredentials): KarrioCredentials => ({ apiKey: typed.apiKey ?? '' });

function accountFields(values: AccountForm) {
  return {
    label: values.label,
    environment: values.environment,
    // The server ignores an address for the carrier's own services; the page does not send one.
    baseUrl: values.environment === 'custom' ? values.baseUrl : undefined,
    timeoutMs: values.timeoutMs ?? undefined,
    enabled: values.enabled,
  };
}

function createBody(values: AccountForm): CarrierAccountCreateBody {
  const typed = values.credentials ?? {};
  return values.kind === 'ups'
    ? { kind: 'ups', ...accountFields(values), credentials: upsCredentials(typed) }
    : { kind: 'karrio', ...accountFields(values), credentials: karrioCredentials(typed) };
}

/** Saves the account; credentials go only when staff typed new ones, as the page never holds the old. */
function save(editing: CarrierAccountRow | 'new', values: AccountForm) {
  if (editing === 'new') return carrierAccountApi.create(createBody(values));
  const typed = values.credentials ?? {};
  const replaced = CARRIER_CREDENTIAL_FIELDS[editing.kind].some((field) => filled(typed[field]));
  const credentials = editing.kind === 'ups' ? upsCredentials(typed) : karrioCredentials(typed);
  return carrierAccountApi.update({
    id: editing.id,
    ...accountFields(values),
    credentials: replaced ? credentials : undefined,
  });
}

/** A refusal of the credentials as a whole is shown on their first field, where staff will look. */
function onFormFields(error: unknown, kind: CarrierKind): unknown {
  if (!(error instanceof ApiError) || error.fields.length === 0) return error;
  const first = CARRIER_CREDENTIAL_FIELDS[kind][0];
  const fields = error.fields.map((f) =>
    f.field === 'credentials' ? { ...f, field: `credentials.${first}` } : f,
  );
  return new ApiError(error.code, error.message, fields, error.data, error.notified);
}

function initialValues(editing: CarrierAccountRow | 'new'): Partial<AccountForm> {
  if (editing === 'new')
    return { kind: 'ups', environment: 'production', timeoutMs: CARRIER_TIMEOUT_MS.default, enabled: true };
  return {
    kind: editing.kind,
    label: editing.label,
    environment: editing.environment,
    baseUrl: editing.environment === 'custom' ? editing.baseUrl : undefined,
    timeoutMs: editing.timeoutMs,
    enabled: editing.enabled,
  };
}

/**
 * Adds or edits one carrier account: its carrier (fixed once saved), name, where its calls go, how long
 * they may take, and the credentials, which are typed in and never shown again.
 */
export function CarrierAccountDialog({
  editing,
  onClose,
  onSaved,
}: {
  editing: CarrierAccountRow | 'new';
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const reportError = useReportError();
  const label = useFieldLabel();
  const [form] = Form.useForm<AccountForm>();
  const creating = editing === 'new';
  const kind: CarrierKind = Form.useWatch('kind', form) ?? (creating ? 'ups' : editing.kind);
  const environment: CarrierEnvironment | undefined = Form.useWatch('environment', form);
  const credentialFields = CARRIER_CREDENTIAL_FIELDS[kind];

  const saving = useMutation({
    mutationFn: (values: AccountForm) => save(editing, values),
    onSuccess: () => {
      message.success(t(creating ? 'carrierAccount.created' : 'carrierAccount.saved'));
      onSaved();
    },
    onError: (error) => reportError(onFormFields(error, kind), form),
  });

  // New credentials come whole: on a new account always, on a saved one once any field is typed.
  // Read when the rule runs, not when the dialog drew: typing in one field changes what the others need.
  const credentialRequired =
    (field: CredentialField): FormRule =>
    ({ getFieldValue }) => ({
      required: creating,
      validator: async (_, value: string | undefined) => {
        const typedAny = credentialFields.some((f) => filled(getFieldValue(['credentials', f])));
        if ((creating || typedAny) && !filled(value))
          throw new Error(t('validation.required', { field: label(field) }));
      },
    });
  const credentialRules = (field: CredentialField): FormRule[] => {
    const schema = credentialShapes[kind][field];
    return schema ? [credentialRequired(field), accountRule(schema, field)] : [credentialRequired(field)];
  };

  const environmentOption = (env: CarrierEnvironment) => {
    const url = env === 'custom' ? null : CARRIER_BASE_URLS[kind][env];
    return {
      value: env,
      label: (
        <span>
          {t(`carrierAccounts.environment.${env}`)}
          {url ? (
            <Typography.Text type="secondary" style={{ display: 'block', overflowWrap: 'anywhere' }}>
              {url}
            </Typography.Text>
          ) : null}
        </span>
      ),
    };
  };

  return (
    <Modal
      open
      title={creating ? t('carrierAccounts.new') : t('carrierAccounts.editTitle')}
      okText={t('common.save')}
      cancelText={t('shell.cancel')}
      confirmLoading={saving.isPending}
      onCancel={onClose}
      onOk={() =>
        form.validateFields().then(
          (values) => saving.mutate(values),
          () => undefined,
        )
      }
      okButtonProps={{ 'data-testid': 'carrier-save' }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initialValues(editing)}>
        <Form.Item
          name="kind"
          label={label('kind')}
          extra={creating ? t('carrierAccounts.kindTip') : undefined}
          rules={[requiredRule(label('kind'))]}
        >
          <Radio.Group
            optionType="button"
            disabled={!creating}
            options={CARRIER_KINDS.map((k) => ({ value: k, label: t(`carrierAccounts.kind.${k}`) }))}
            data-testid="carrier-kind"
          />
        </Form.Item>
        <Form.Item
          name="label"
          label={label('label')}
          extra={t('carrierAccounts.labelTip')}
          rules={[requiredRule(label('label')), accountRule(accountShape.label, 'label')]}
        >
          <Input maxLength={60} data-testid="carrier-label" />
        </Form.Item>
        <Form.Item
          name="environment"
          label={label('environment')}
          rules={[requiredRule(label('environment'))]}
        >
          <Radio.Group
            orientation="vertical"
            options={CARRIER_ENVIRONMENTS.map(environmentOption)}
            data-testid="carrier-environment"
          />
        </Form.Item>
        {environment === 'custom' ? (
          <Form.Item
            name="baseUrl"
            label={label('baseUrl')}
            extra={t('carrierAccounts.baseUrlTip')}
            rules={[requiredRule(label('baseUrl')), accountRule(accountShape.baseUrl, 'baseUrl')]}
          >
            <Input maxLength={300} placeholder="https://" data-testid="carrier-base-url" />
          </Form.Item>
        ) : null}
        <Form.Item
          name="timeoutMs"
          label={label('timeoutMs')}
          extra={t('carrierAccounts.timeoutTip', {
            min: CARRIER_TIMEOUT_MS.min,
            max: CARRIER_TIMEOUT_MS.max,
            fallback: CARRIER_TIMEOUT_MS.default,
          })}
          rules={[accountRule(accountShape.timeoutMs, 'timeoutMs')]}
        >
          <InputNumber<number>
            min={CARRIER_TIMEOUT_MS.min}
            max={CARRIER_TIMEOUT_MS.max}
            step={1000}
            precision={0}
            style={{ width: '100%' }}
            data-testid="carrier-timeout"
          />
        </Form.Item>
        <Form.Item name="enabled" label={label('enabled')} valuePropName="checked">
          <Switch data-testid="carrier-enabled" />
        </Form.Item>

        <Typography.Title level={5}>{label('credentials')}</Typography.Title>
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="carrier-credentials-hint"
          title={
            creating
              ? t('carrierAccounts.credentialsNew')
              : t('carrierAccounts.credentialsKept', {
                  fields: editing.credentialFields.map(label).join(', '),
                  time: formatTime(editing.credentialsUpdatedAt),
                })
          }
        />
        {credentialFields.map((field) => (
          <Form.Item
            key={`${kind}-${field}`}
            name={['credentials', field]}
            label={label(field)}
            extra={field === 'accountNumber' ? t('carrierAccounts.accountNumberTip') : undefined}
            dependencies={credentialFields.filter((f) => f !== field).map((f) => ['credentials', f])}
            rules={credentialRules(field)}
          >
            {/* new-password: the browser must not fill in the staff member's own sign-in password. */}
            <Input.Password autoComplete="new-password" data-testid={`carrier-credential-${field}`} />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}
