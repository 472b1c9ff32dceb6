import { ADDRESS_TYPE_LABELS } from '@freight/contracts/addresses';
import { COUNTRIES } from '@freight/contracts/countries';
import { ADDRESS_TYPES, shipmentAddress } from '@freight/contracts/truck-shipment';
import { useQuery } from '@tanstack/react-query';
import { Checkbox, Col, Form, Input, Select, Space, TimePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldRule, requiredRule } from '../../lib/form-rules.ts';
import { type AddressBookEntry, type AddressOwner, addressApi } from './api.ts';
import { BookDialog, OwnerField } from './BookParts.tsx';

const shape = shipmentAddress.shape;

/** Dial codes for the phone prefix, one entry per code. */
const DIAL_CODES = [...new Set(COUNTRIES.map((c) => c.tel).filter(Boolean))].map((tel) => ({
  value: tel,
  label: `+${tel}`,
}));

/** The form keeps windows as HH:mm text, the API's form; the time picker works on dayjs values. */
const timeProps = {
  getValueProps: (value: string | undefined) => {
    const [h, m] = (value ?? '').split(':').map(Number);
    return {
      value: value
        ? dayjs()
            .hour(h ?? 0)
            .minute(m ?? 0)
            .second(0)
        : undefined,
    };
  },
  normalize: (value: Dayjs | null) => (value ? value.format('HH:mm') : undefined),
};

const DEFAULTS = {
  country: 'US',
  dialCode: '1',
  windowStart: '09:00',
  windowEnd: '17:00',
  addressType: 'business',
  isDefaultPickup: false,
};

/**
 * Create or edit one address of the book: every field of the quote form's address. A five-digit ZIP
 * fills city and state; an FBA address is picked from Amazon's warehouses.
 */
export function AddressDialog({
  editing,
  owners,
  ownerRequired,
  onClose,
  onSaved,
}: {
  editing: AddressBookEntry | 'new';
  /** Whose books the caller may write to; the choice shows when there is more than one. */
  owners: AddressOwner[];
  /** Staff belong to no organisation, so they must choose one. */
  ownerRequired: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  const [form] = Form.useForm();
  const [zipUnknown, setZipUnknown] = useState(false);
  const addressType = Form.useWatch('addressType', form);
  const fba = useQuery({
    queryKey: ['fba-warehouses'],
    queryFn: () => addressApi.fbaWarehouses(),
    enabled: addressType === 'fba',
    staleTime: Number.POSITIVE_INFINITY,
  });

  const lookUpZip = async (zipcode: string) => {
    setZipUnknown(false);
    if (!/^\d{5}$/.test(zipcode)) return;
    try {
      const [place] = await addressApi.placesOfZip(zipcode);
      // The answer may come after the user typed on; only the ZIP it was asked for fills the form.
      if (form.getFieldValue('zipcode') !== zipcode) return;
      if (!place) {
        setZipUnknown(true);
        return;
      }
      form.setFieldsValue({ city: place.city, state: place.state, country: place.country });
      void form.validateFields(['city', 'state']);
    } catch {
      // A failed lookup leaves the fields to the user; the client has already said why.
    }
  };

  const pickWarehouse = (code: string) => {
    const w = fba.data?.find((x) => x.code === code);
    if (!w) return;
    form.setFieldsValue({
      name: w.name,
      address1: w.address1,
      city: w.city,
      state: w.state,
      zipcode: w.zipcode,
      country: w.country,
    });
    setZipUnknown(false);
  };

  return (
    <BookDialog
      form={form}
      title={editing === 'new' ? t('addresses.new') : t('addresses.edit')}
      tip={t('addresses.englishTip')}
      initialValues={editing === 'new' ? DEFAULTS : editing}
      testId="address"
      submit={(values) => addressApi.save({ ...values, id: editing === 'new' ? undefined : editing.id })}
      onClose={onClose}
      onSaved={onSaved}
    >
      {owners.length > 1 || ownerRequired ? (
        <Col span={12}>
          <OwnerField owners={owners} required={ownerRequired} testId="address-owner" />
        </Col>
      ) : null}
      <Col span={12}>
        <Form.Item name="addressType" label={t('addresses.type')} rules={[requiredRule(t('addresses.type'))]}>
          <Select
            options={ADDRESS_TYPES.map((type) => ({
              value: type,
              label: ADDRESS_TYPE_LABELS[type][language],
            }))}
            data-testid="address-type"
          />
        </Form.Item>
      </Col>
      {addressType === 'fba' ? (
        <Col span={12}>
          <Form.Item
            name="fbaCode"
            label={t('addresses.fbaCode')}
            extra={t('addresses.fbaTip')}
            rules={[requiredRule(t('addresses.fbaCode'))]}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              loading={fba.isLoading}
              placeholder={t('addresses.fbaPick')}
              onChange={pickWarehouse}
              options={(fba.data ?? []).map((w) => ({
                value: w.code,
                label: `${w.code} · ${w.city}, ${w.state} ${w.zipcode}`,
              }))}
              data-testid="address-fba"
            />
          </Form.Item>
        </Col>
      ) : null}
      <Col span={24}>
        <Form.Item
          name="name"
          label={t('addresses.name')}
          rules={[requiredRule(t('addresses.name')), fieldRule(shape.name, 'address.name')]}
        >
          <Input maxLength={100} data-testid="address-name" />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item
          name="address1"
          label={t('addresses.address1')}
          rules={[requiredRule(t('addresses.address1')), fieldRule(shape.address1, 'address1')]}
        >
          <Input maxLength={200} data-testid="address-address1" />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item
          name="address2"
          label={t('addresses.address2')}
          rules={[fieldRule(shape.address2, 'address2')]}
        >
          <Input maxLength={200} />
        </Form.Item>
      </Col>
      <Col span={6}>
        <Form.Item
          name="zipcode"
          label={t('addresses.zipcode')}
          tooltip={t('addresses.zipTip')}
          rules={[requiredRule(t('addresses.zipcode')), fieldRule(shape.zipcode, 'zipcode')]}
          help={zipUnknown ? t('addresses.zipUnknown') : undefined}
          validateStatus={zipUnknown ? 'warning' : undefined}
        >
          <Input
            maxLength={5}
            inputMode="numeric"
            onChange={(e) => void lookUpZip(e.target.value)}
            data-testid="address-zipcode"
          />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item
          name="city"
          label={t('addresses.city')}
          rules={[requiredRule(t('addresses.city')), fieldRule(shape.city, 'city')]}
        >
          <Input maxLength={100} data-testid="address-city" />
        </Form.Item>
      </Col>
      <Col span={4}>
        <Form.Item
          name="state"
          label={t('addresses.state')}
          rules={[requiredRule(t('addresses.state')), fieldRule(shape.state, 'state')]}
          normalize={(v: string) => v?.toUpperCase()}
        >
          <Input maxLength={2} data-testid="address-state" />
        </Form.Item>
      </Col>
      <Col span={6}>
        <Form.Item
          name="country"
          label={t('addresses.country')}
          rules={[requiredRule(t('addresses.country'))]}
        >
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            options={COUNTRIES.filter((c) => c.short).map((c) => ({
              value: c.short,
              label: language === 'en-US' ? c.en : c.name,
            }))}
          />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item
          name="contact"
          label={t('addresses.contact')}
          rules={[requiredRule(t('addresses.contact')), fieldRule(shape.contact, 'contact')]}
        >
          <Input maxLength={100} data-testid="address-contact" />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item label={t('addresses.phone')} required>
          <Space.Compact block>
            <Form.Item name="dialCode" noStyle>
              <Select showSearch style={{ width: 90 }} options={DIAL_CODES} />
            </Form.Item>
            <Form.Item
              name="phone"
              noStyle
              rules={[requiredRule(t('addresses.phone')), fieldRule(shape.phone, 'phone')]}
            >
              <Input maxLength={15} inputMode="numeric" data-testid="address-phone" />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item name="email" label={t('addresses.email')} rules={[fieldRule(shape.email, 'email')]}>
          <Input maxLength={254} data-testid="address-email" />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item
          name="windowStart"
          label={`${t('addresses.window')} · ${t('addresses.windowStart')}`}
          rules={[requiredRule(t('addresses.windowStart'))]}
          {...timeProps}
        >
          <TimePicker format="HH:mm" minuteStep={15} needConfirm={false} style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item
          name="windowEnd"
          label={`${t('addresses.window')} · ${t('addresses.windowEnd')}`}
          dependencies={['windowStart']}
          rules={[
            requiredRule(t('addresses.windowEnd')),
            ({ getFieldValue }) => ({
              validator: async (_, value: string | undefined) => {
                const start = getFieldValue('windowStart') as string | undefined;
                if (value && start && value <= start) throw new Error(t('validation.windowOrder'));
              },
            }),
          ]}
          {...timeProps}
        >
          <TimePicker format="HH:mm" minuteStep={15} needConfirm={false} style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item name="isDefaultPickup" valuePropName="checked" label=" ">
          <Checkbox data-testid="address-default">{t('addresses.isDefaultPickup')}</Checkbox>
        </Form.Item>
      </Col>
    </BookDialog>
  );
}
