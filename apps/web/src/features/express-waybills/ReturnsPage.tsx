import { RollbackOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, Form, Input, Modal, Select, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReportError } from '../../hooks/useReportError.ts';
import { requiredRule } from '../../lib/form-rules.ts';
import { applyFieldErrors } from '../../lib/http.ts';
import { trackingApi, WAYBILL_LIST_URL, type WaybillView, waybillApi } from './api.ts';
import { WaybillList } from './WaybillListPage.tsx';

interface ReturnForm {
  number: string;
  returnAddressId?: number;
  pay: boolean;
}

/**
 * `/expressReturnsList`: the return waybills, each naming the waybill whose parcel comes back, and the
 * dialog that makes one from a delivered waybill to a return address of its customer's book.
 */
export default function ReturnsPage() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <WaybillList
        type="return"
        extra={
          <Button
            type="primary"
            icon={<RollbackOutlined />}
            onClick={() => setOpen(true)}
            data-testid="return-create"
          >
            {t('returns.create')}
          </Button>
        }
      />
      {open ? <CreateReturnDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function CreateReturnDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const reportError = useReportError();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ReturnForm>();
  const [original, setOriginal] = useState<WaybillView | null>(null);
  const [lookingUp, setLookingUp] = useState(false);
  const typed = Form.useWatch('number', form)?.trim();
  const addresses = useQuery({
    queryKey: ['return-addresses', original?.organisationId],
    queryFn: () => waybillApi.returnAddresses(original?.organisationId as number),
    enabled: original !== null,
  });

  const lookUp = async () => {
    const number = (form.getFieldValue('number') as string | undefined)?.trim();
    if (!number) return;
    setLookingUp(true);
    try {
      const found = await trackingApi.findWaybill(number);
      setOriginal(found);
      form.setFields([
        { name: 'number', errors: found ? [] : [t('returns.originalUnknown')] },
        // Return addresses are the original customer's: a new original empties the choice.
        { name: 'returnAddressId', value: undefined },
      ]);
    } catch (error) {
      reportError(error);
    } finally {
      setLookingUp(false);
    }
  };

  const create = useMutation({
    mutationFn: async (values: ReturnForm) => {
      const found = original ?? (await trackingApi.findWaybill(values.number.trim()));
      if (!found) throw new OriginalUnknown();
      return waybillApi.createReturn({
        id: found.id,
        returnAddressId: values.returnAddressId as number,
        pay: values.pay,
      });
    },
    onSuccess: (done) => {
      if (done.payment && !done.payment.ok)
        message.warning(t('returns.notPaid', { message: done.payment.message }));
      else message.success(t('returns.created', { waybillNo: done.waybillNo }));
      void queryClient.invalidateQueries({ queryKey: [WAYBILL_LIST_URL] });
      onClose();
    },
    onError: (error) => {
      if (error instanceof OriginalUnknown)
        form.setFields([{ name: 'number', errors: [t('returns.originalUnknown')] }]);
      else if (!applyFieldErrors(error, form.setFields as never)) reportError(error);
    },
  });

  const options = (addresses.data?.list ?? []).map((a) => ({
    value: a.id,
    label: `${a.name} (${a.address_code}) · ${a.detail}, ${a.city}, ${a.province_code} ${a.zipcode}`,
  }));
  return (
    <Modal
      open
      title={t('returns.create')}
      okText={t('shell.ok')}
      cancelText={t('shell.cancel')}
      confirmLoading={create.isPending}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ 'data-testid': 'return-submit' } as never}
      width={600}
    >
      <Form<ReturnForm>
        form={form}
        layout="vertical"
        initialValues={{ pay: false }}
        onFinish={(values) => create.mutate(values)}
      >
        <Form.Item
          name="number"
          label={t('returns.original')}
          extra={t('returns.originalTip')}
          rules={[requiredRule(t('returns.original'))]}
        >
          <Input
            onBlur={() => void lookUp()}
            onPressEnter={() => void lookUp()}
            onChange={() => setOriginal(null)}
            data-testid="return-original"
          />
        </Form.Item>
        <Form.Item
          name="returnAddressId"
          label={t('returns.address')}
          rules={[requiredRule(t('returns.address'))]}
        >
          {/* Open once a number is typed: opening it looks the number up when that has not happened
              yet (the select keeps the number's focus, so no blur comes), and the list fills when the
              waybill's addresses arrive. */}
          <Select
            options={original ? options : []}
            loading={lookingUp || addresses.isFetching}
            disabled={!typed}
            onOpenChange={(opening) => {
              if (opening && original === null && !lookingUp) void lookUp();
            }}
            notFoundContent={lookingUp || addresses.isFetching ? <Spin size="small" /> : undefined}
            data-testid="return-address"
          />
        </Form.Item>
        {original && addresses.isSuccess && options.length === 0 ? (
          <Alert type="warning" showIcon title={t('returns.addressEmpty')} style={{ marginBottom: 12 }} />
        ) : null}
        <Form.Item name="pay" valuePropName="checked">
          <Checkbox data-testid="return-pay">{t('returns.pay')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The number typed names no waybill the user may see. */
class OriginalUnknown extends Error {}
