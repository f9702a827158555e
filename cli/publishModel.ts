// `yaniv publish-model DIR --redis URL`: a trained model, published to every server of a cluster
// without a restart (serve/inference/models.ts): checked against this build's and the servers' observation
// and action-space versions first.
import { Command } from 'commander';
import { schemaFlags } from '../support/schemaFlags.js';
import { connectRedis } from '../support/redis.js';
import { redactUrl } from '../support/secret.js';
import { PUBLISH_MODEL_FLAGS, publishModel, publishModelSchema } from '../serve/inference/models.js';
import { addSchemaOptions, readSchemaOptions, schemaOptionValues } from './schemaOptions.js';

const FLAGS = schemaFlags(publishModelSchema, PUBLISH_MODEL_FLAGS);

export function publishModelCommand(): Command {
  const command = new Command('publish-model')
    .description(
      'Publish a model folder to the servers sharing a Redis (yaniv serve --redis): new tables and advice get it, running tables keep theirs',
    )
    .argument('<dir>', 'the model folder (model.json, weights, metadata.json), or a training run (its best/ or checkpoint/)');
  return addSchemaOptions(command, FLAGS).action(async (dir: string, _flags: unknown, cmd: Command) => {
    const options = readSchemaOptions(publishModelSchema, FLAGS, schemaOptionValues(cmd, FLAGS));
    const redis = await connectRedis(options.redis, 'yaniv-publish-model');
    try {
      const { version, dir: folder } = await publishModel(redis, options.agent, dir);
      process.stdout.write(`published ${folder} as version ${version} of ${options.agent} on ${redactUrl(options.redis)}\n`);
    } finally {
      redis.disconnect();
    }
  });
}
