import { EnvironmentOutlined } from '@ant-design/icons';
import { EXPRESS_ADDRESS_KINDS, expressAddressSaveBody } from '@freight/contracts/addresses';
import { COUNTRIES } from '@freight/contracts/countries';
import { App, Button, Checkbox, Col, Form, Input, Radio, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReportError } from '../../hooks/useReportError.ts';
import { fieldRule, requiredRule } from '../../lib/form-rules.ts';
import { applyFieldErrors } from '../../lib/http.ts';
import { type AddressOwner, addressApi, type ExpressAddressEntry, expressAddressApi } from './api.ts';
import { BookDialog, OwnerField } from './BookParts.tsx';

const shape = expressAddressSaveBody.shape;
const COUNTRY_OPTIONS = COUNTRIES.filter((c) => c.short !== '');
/** Dial codes for the phone prefix, one entry per code. */
const DIAL_CODES = [...new Set(COUNTRY_OPTIONS.map((c) => c.tel).filter(Boolean))]
  .sort((a, b) => Number(a) - Number(b))
  .map((tel) => ({ value: tel, label: `+${tel}` }));

const DEFAULTS = {
  kind: 'sender',
  country: 'US',
  dialCode: '1',
  residential: false,
  isDefault: false,
};

type Values = Omit<ExpressAddressEntry, 'id' | 'organisationName' | 'createdAt' | 'updatedAt'>;

/**
 * Create or edit one entry of the express book: the express quote's address, what it is for, and
 * whether it is the default of its type. A US ZIP fills city and state as it is typed, and the express
 * line's check (`address/check`) confirms they agree; the server checks again on save.
 */
export function ExpressAddressDialog({
  editing,
  owners,
  ownerRequired,
  onClose,
  onSaved,
}: {
  editing: ExpressAddressEntry | 'new';
  owners: AddressOwner[];
  ownerRequired: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const { message } = App.useApp();
  const reportError = useReportError();
  const [form] = Form.useForm<Values & { organisationId?: number }>();
  const [checking, setChecking] = useState(false);
  const country = Form.useWatch('country', form) ?? 'US';
  const us = country === 'US';
  const label = (key: string) => t(`expressAddresses.${key}`);

  const lookUpZip = async (zipcode: string) => {
    if (form.getFieldValue('country') !== 'US' || !/^\d{5}$/.test(zipcode)) return;
    try {
      const [place] = await addressApi.placesOfZip(zipcode);
      // The answer may come after the user typed on; only the ZIP it was asked for fills the form.
      if (!place || form.getFieldValue('zipcode') !== zipcode) return;
      form.setFieldsValue({ city: place.city, state: place.state });
      void form.validateFields(['city', 'state']);
    } catch {
      // A failed lookup leaves the fields to the user; the client has already said why.
    }
  };

  const check = async () => {
    try {
      await form.validateFields(['zipcode', 'city', 'state', 'country']);
    } catch {
      return;
    }
    const { zipcode, city, state } = form.getFieldsValue(['zipcode', 'city', 'state']);
    setChecking(true);
    try {
      const answer = await expressAddressApi.check({ zipcode, city, state: state ?? '', country });
      if (!answer.confirmed) {
        message.info(label('checkAbroad'));
        return;
      }
      // The lookup's spelling of the city and state is what carriers expect on the label.
      form.setFieldsValue({ city: answer.city, state: answer.state });
      message.success(label('checkOk'));
    } catch (error) {
      if (!applyFieldErrors(error, form.setFields)) reportError(error);
    } finally {
      setChecking(false);
    }
  };

  return (
    <BookDialog
      form={form}
      title={editing === 'new' ? label('new') : label('edit')}
      tip={label('englishTip')}
      initialValues={editing === 'new' ? DEFAULTS : editing}
      testId="express-address"
      submit={(values) =>
        expressAddressApi.save({
          ...values,
          // Spaces and dashes people type between the digits are not part of the number.
          phone: String(values.phone ?? '').replace(/[\s\-()]/g, ''),
          id: editing === 'new' ? undefined : editing.id,
        })
      }
      onClose={onClose}
      onSaved={onSaved}
    >
      <Col xs={24} md={owners.length > 1 || ownerRequired ? 12 : 24}>
        <Form.Item name="kind" label={label('kind')} rules={[requiredRule(label('kind'))]}>
          <Radio.Group
            optionType="button"
            options={EXPRESS_ADDRESS_KINDS.map((k) => ({ value: k, label: label(`kind.${k}`) }))}
            data-testid="express-address-kind"
          />
        </Form.Item>
      </Col>
      {owners.length > 1 || ownerRequired ? (
        <Col xs={24} md={12}>
          <OwnerField owners={owners} required={ownerRequired} testId="express-address-owner" />
        </Col>
      ) : null}
      <Col xs={24} md={12}>
        <Form.Item
          name="name"
          label={label('name')}
          rules={[requiredRule(label('name')), fieldRule(shape.name, 'name')]}
        >
          <Input maxLength={100} data-testid="express-address-name" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="company" label={label('company')} rules={[fieldRule(shape.company, 'company')]}>
          <Input maxLength={100} data-testid="express-address-company" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          name="address1"
          label={label('address1')}
          rules={[requiredRule(label('address1')), fieldRule(shape.address1, 'address1')]}
        >
          <Input maxLength={200} data-testid="express-address-address1" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="address2" label={label('address2')} rules={[fieldRule(shape.address2, 'address2')]}>
          <Input maxLength={200} data-testid="express-address-address2" />
        </Form.Item>
      </Col>
      <Col xs={24} md={8}>
        <Form.Item name="country" label={label('country')} rules={[requiredRule(label('country'))]}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            options={COUNTRY_OPTIONS.map((c) => ({
              value: c.short,
              label: `${c.short} · ${en ? c.en : c.name}`,
            }))}
            onChange={(code: string) => {
              const tel = COUNTRY_OPTIONS.find((c) => c.short === code)?.tel;
              if (tel) form.setFieldValue('dialCode', tel);
            }}
            data-testid="express-address-country"
          />
        </Form.Item>
      </Col>
      <Col xs={12} md={5}>
        <Form.Item
          name="zipcode"
          label={label('zipcode')}
          tooltip={label('zipTip')}
          rules={[requiredRule(label('zipcode'))]}
          normalize={(v: string) => v?.toUpperCase()}
        >
          <Input
            maxLength={us ? 10 : 12}
            onChange={(e) => void lookUpZip(e.target.value.trim())}
            data-testid="express-address-zipcode"
          />
        </Form.Item>
      </Col>
      <Col xs={12} md={6}>
        <Form.Item
          name="city"
          label={label('city')}
          rules={[requiredRule(label('city')), fieldRule(shape.city, 'city')]}
        >
          <Input maxLength={100} data-testid="express-address-city" />
        </Form.Item>
      </Col>
      <Col xs={24} md={5}>
        <Form.Item
          name="state"
          label={label('state')}
          rules={us ? [requiredRule(label('state'))] : []}
          normalize={(v: string) => (us ? v?.toUpperCase() : v)}
        >
          <Input maxLength={us ? 2 : 60} data-testid="express-address-state" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item label={label('phone')} required>
          <Space.Compact block>
            <Form.Item name="dialCode" noStyle>
              <Select showSearch style={{ width: 96 }} options={DIAL_CODES} />
            </Form.Item>
            <Form.Item name="phone" noStyle rules={[requiredRule(label('phone'))]}>
              <Input maxLength={20} inputMode="numeric" data-testid="express-address-phone" />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="email" label={label('email')} rules={[fieldRule(shape.email, 'email')]}>
          <Input maxLength={254} data-testid="express-address-email" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Space wrap>
          <Form.Item name="residential" valuePropName="checked" noStyle>
            <Checkbox data-testid="express-address-residential">{label('residential')}</Checkbox>
          </Form.Item>
          <Form.Item name="isDefault" valuePropName="checked" noStyle>
            <Checkbox data-testid="express-address-default">{label('isDefault')}</Checkbox>
          </Form.Item>
        </Space>
      </Col>
      <Col xs={24} md={12} style={{ textAlign: 'right' }}>
        <Button
          icon={<EnvironmentOutlined />}
          loading={checking}
          onClick={() => void check()}
          data-testid="express-address-check"
        >
          {label('check')}
        </Button>
      </Col>
    </BookDialog>
  );
}
