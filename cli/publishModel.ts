// `yaniv publish-model DIR --redis URL`: a trained model, published to every server of a cluster
// without a restart (serve/models.ts): checked against this build's and the servers' observation
// and action-space versions first.
import { Command, InvalidArgumentError, Option } from 'commander';
import { connectRedis, redactUrl } from '../agents/redisConnection.js';
import { publishModel } from '../serve/models.js';
import { parseAgentSpec } from '../agents/registry.js';

export function publishModelCommand(): Command {
  return new Command('publish-model')
    .description(
      'Publish a model folder to the servers sharing a Redis (yaniv serve --redis): new tables and advice get it, running tables keep theirs',
    )
    .argument('<dir>', 'the model folder (model.json, weights, metadata.json), or a training run (its best/ or checkpoint/)')
    .addOption(new Option('--redis <url>', 'the Redis the servers use').env('YANIV_REDIS').makeOptionMandatory())
    .addOption(new Option('--agent <spec>', 'the served agent it replaces (as in yaniv serve --agents)').default('neural'))
    .action(async (dir: string, flags: { redis: string; agent: string }) => {
      if (parseAgentSpec(flags.agent).name !== 'neural')
        throw new InvalidArgumentError(`--agent must be a neural agent as served (e.g. neural), not ${JSON.stringify(flags.agent)}`);
      const redis = await connectRedis(flags.redis, 'yaniv-publish-model');
      try {
        const { version, dir: folder } = await publishModel(redis, flags.agent, dir);
        process.stdout.write(`published ${folder} as version ${version} of ${flags.agent} on ${redactUrl(flags.redis)}\n`);
      } finally {
        redis.disconnect();
      }
    });
}
