import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export default function ErrorPage({ code }: { code: 401 | 404 }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      style={{ paddingTop: '12vh' }}
      status={code === 401 ? '403' : '404'}
      title={t(code === 401 ? 'error.401.title' : 'error.404.title')}
      subTitle={t(code === 401 ? 'error.401.body' : 'error.404.body')}
      extra={
        <Button type="primary" onClick={() => navigate('/home')} data-testid="error-home">
          {t('error.backHome')}
        </Button>
      }
    />
  );
}
