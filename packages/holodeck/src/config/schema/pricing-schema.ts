import { z } from 'zod';

const perMillion = (what: string) => z.number().nonnegative().describe(`USD per million ${what}.`);

/**
 * `pricing:` in agent.yaml: the prices of the agent's model (`model:`), in US dollars per million
 * tokens. They replace the built-in price table (openai, azure_openai) and the Claude CLI's own
 * cost, and give a local model (ollama) a price.
 */
export const PricingSchema = z
  .strictObject({
    input_per_million: perMillion('input (prompt) tokens not read from a prompt cache'),
    output_per_million: perMillion('output tokens (reasoning tokens included)'),
    cached_input_per_million: perMillion('input tokens read from the prompt cache')
      .optional()
      .describe('USD per million input tokens read from the prompt cache; default: input_per_million.'),
    cache_write_per_million: perMillion('input tokens written to the prompt cache')
      .optional()
      .describe(
        'USD per million input tokens written to the prompt cache (Anthropic); default: input_per_million.',
      ),
  })
  .describe(
    "Prices of the agent's model in USD per million tokens; they override the built-in table and the Claude CLI's cost.",
  );

/** The prices of `pricing:` in agent.yaml. */
export type PricingConfig = z.infer<typeof PricingSchema>;
