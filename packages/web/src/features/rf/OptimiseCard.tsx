import { ThunderboltOutlined } from '@ant-design/icons';
import type { RfRunList, RfView } from '@beacon/protocol';
import { Button, Card, Popconfirm, Progress, Space, Statistic, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, showError } from '../../state/feedback.ts';
import { rfApi } from './api.ts';

interface Props {
  projectId: number;
  view: RfView;
  runs: RfRunList['items'];
  writable: boolean;
  refresh(): void;
  show(next: RfView): void;
}

/** Starts an automatic optimisation and shows its progress, then what the last one achieved. */
export function OptimiseCard({ projectId, view, runs, writable, refresh, show }: Props) {
  const { t } = useTranslation();
  const [starting, setStarting] = useState(false);
  const running = view.running;
  const last = runs.find((r) => r.kind !== 'manual' && r.state !== 'running' && r.state !== 'skipped');
  const tooFew = view.online < 2;
  const start = async () => {
    setStarting(true);
    try {
      // The run shows at once (its progress), then the screen follows it until it ends.
      const { records: _records, ...run } = await rfApi.optimise(projectId);
      show({ ...view, running: run });
    } catch (e) {
      showError(errorText(e));
    } finally {
      setStarting(false);
      refresh();
    }
  };
  const reduction =
    last?.scoreBefore && last.scoreAfter !== null
      ? Math.round((1 - last.scoreAfter / last.scoreBefore) * 100)
      : null;
  return (
    <Card size="small" title={t('rf.optimise.title')} data-testid="rf-optimise-card">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('rf.optimise.explain')}</Typography.Text>
        {running ? (
          <div data-testid="rf-running" data-kind={running.kind}>
            <Typography.Text>
              {t('rf.optimise.running', { kind: t(`rf.kind.${running.kind}`) })}
            </Typography.Text>
            <Progress
              percent={running.progress}
              status="active"
              aria-label={t('rf.optimise.progress')}
              data-testid="rf-progress"
              data-progress={running.progress}
            />
          </div>
        ) : (
          <Space wrap>
            <Popconfirm
              title={t('rf.optimise.confirmTitle')}
              description={t('rf.optimise.confirm', { count: view.online })}
              okText={t('rf.optimise.start')}
              cancelText={t('rf.cancel')}
              okButtonProps={{ 'data-testid': 'rf-optimise-confirm' } as Record<string, string>}
              onConfirm={start}
              disabled={!writable || tooFew || view.adaptation !== null}
            >
              <Button
                type="primary"
                icon={<ThunderboltOutlined />}
                loading={starting}
                disabled={!writable || tooFew || view.adaptation !== null}
                data-testid="rf-optimise"
              >
                {t('rf.optimise.start')}
              </Button>
            </Popconfirm>
            {tooFew && <Typography.Text type="warning">{t('rf.optimise.tooFew')}</Typography.Text>}
            {view.adaptation && <Typography.Text type="warning">{t('rf.optimise.adapting')}</Typography.Text>}
          </Space>
        )}
        {last && (
          <Space wrap size="large" data-testid="rf-last-result" data-state={last.state}>
            <Statistic
              title={t('rf.optimise.lastState')}
              value={t(`rf.state.${last.state}`)}
              valueStyle={{ fontSize: 16 }}
            />
            {last.scoreBefore !== null && (
              <Statistic
                title={t('rf.optimise.score')}
                value={`${last.scoreBefore} → ${last.scoreAfter ?? '–'}`}
                valueStyle={{ fontSize: 16 }}
              />
            )}
            {reduction !== null && (
              <Statistic
                title={t('rf.optimise.reduction')}
                value={reduction}
                suffix="%"
                valueStyle={{ fontSize: 16 }}
              />
            )}
            {last.coChannelBefore !== null && (
              <Statistic
                title={t('rf.optimise.coChannel')}
                value={`${last.coChannelBefore} → ${last.coChannelAfter ?? '–'}`}
                valueStyle={{ fontSize: 16 }}
              />
            )}
          </Space>
        )}
      </Space>
    </Card>
  );
}
