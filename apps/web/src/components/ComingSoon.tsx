import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** A page whose module arrives in a later release: a clear, translated empty state, never a blank screen. */
export function ComingSoon({ title }: { title: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="info"
      title={t('comingSoon.title', { name: title })}
      subTitle={t('comingSoon.body')}
      extra={
        <Button type="primary" onClick={() => navigate('/home')}>
          {t('comingSoon.back')}
        </Button>
      }
    />
  );
}
