import { Alert, Modal, Steps } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The 600px batch import dialog of SPEC section 2: download the template, optionally check, upload one
 * file, import. The truck and express order modules plug their template and calls in; until a line's
 * module is there the dialog says so instead of offering an import that cannot run.
 */
export function BatchImportDialog({
  line,
  open,
  onClose,
}: {
  line: 'truck' | 'express';
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      width={600}
      title={line === 'truck' ? t('shell.truckBatch') : t('shell.expressBatch')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <Steps
        size="small"
        current={0}
        style={{ margin: '12px 0 20px' }}
        items={[
          { title: t('batch.template') },
          { title: t('batch.check') },
          { title: t('batch.upload') },
          { title: t('batch.import') },
        ]}
      />
      <Alert type="info" showIcon title={t('batch.notYet')} />
    </Modal>
  );
}
