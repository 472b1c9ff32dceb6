import { Avatar, Card, Col, Descriptions, Empty, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { flattenPages, useSession } from '../../app/session.tsx';
import { MenuIcon } from '../../components/MenuIcon.tsx';

/** Who is signed in, and a shortcut to every page granted to them. */
export default function HomePage() {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const { userInfo, menus } = useSession();
  const navigate = useNavigate();
  const shortcuts = flattenPages(menus).filter(({ node }) => node.is_show === 1 && node.paths !== '/home');
  return (
    <Row gutter={[12, 12]}>
      <Col xs={24} lg={8}>
        <Card>
          <Typography.Title level={4} data-testid="home-greeting">
            {t('home.greeting', { name: userInfo?.name ?? '' })}
          </Typography.Title>
          <Descriptions column={1} size="small">
            <Descriptions.Item label={t('home.identity')}>
              {t(`identity.${userInfo?.identity ?? 'customer'}`)}
            </Descriptions.Item>
            <Descriptions.Item label={t('home.company')}>{userInfo?.company}</Descriptions.Item>
            <Descriptions.Item label={t('home.email')}>{userInfo?.email}</Descriptions.Item>
          </Descriptions>
        </Card>
      </Col>
      <Col xs={24} lg={16}>
        <Card title={t('home.shortcuts')}>
          {shortcuts.length === 0 ? (
            <Empty description={t('home.noShortcuts')} />
          ) : (
            <Row gutter={[8, 8]}>
              {shortcuts.map(({ node }) => (
                <Col xs={12} md={8} xl={6} key={node.paths}>
                  <Card
                    size="small"
                    hoverable
                    onClick={() => navigate(node.paths)}
                    data-testid={`shortcut-${node.paths}`}
                  >
                    <Card.Meta
                      avatar={
                        <Avatar
                          style={{ background: 'var(--primary)' }}
                          icon={<MenuIcon name={node.icon} />}
                        />
                      }
                      title={en ? node.name_en : node.name}
                    />
                  </Card>
                </Col>
              ))}
            </Row>
          )}
        </Card>
      </Col>
    </Row>
  );
}
