import { z } from 'zod';
import { errorMessage } from '../../support.js';
import { HttpUrlSchema } from './llm-provider-schema.js';

/** A regular expression given as a string; checked to compile. */
const RegexSourceSchema = z.string().superRefine((source, context) => {
  try {
    new RegExp(source);
  } catch (error) {
    const reason = errorMessage(error).replace(/^Invalid regular expression: /, '');
    context.addIssue({ code: 'custom', message: `is not a valid regular expression: ${reason}`, params: {} });
  }
});

// Fields without defaults stay undefined when absent, so startup rules can tell "set by the user"
// from "defaulted" (the Claude backend warns about fields it cannot honour only when they are set).
export const TracesConfigSchema = z.strictObject({
  enabled: z.boolean().default(true).describe('Turns this part on (default true when the block is present).'),
  sample_rate: z.number().min(0).max(1).optional().describe('Share of traces kept, 0..1.'),
  redaction_patterns: z
    .array(RegexSourceSchema)
    .optional()
    .describe('Regular expressions whose matches are removed from exported text.'),
  capture_content: z.boolean().default(false).describe('Export prompts and responses (off by default).'),
});

export const MetricsConfigSchema = z.strictObject({
  enabled: z.boolean().default(true).describe('Turns this part on (default true when the block is present).'),
  export_interval_ms: z.int().positive().optional().describe('How often metrics are exported (ms).'),
});

export const LogsConfigSchema = z.strictObject({
  enabled: z.boolean().default(true).describe('Turns this part on (default true when the block is present).'),
  level: z.enum(['debug', 'info', 'warning', 'error']).optional().describe('Lowest level exported.'),
  filter_namespaces: z.array(z.string().min(1)).optional().describe('Only logs of these namespaces.'),
});

export const OtlpExporterSchema = z.strictObject({
  enabled: z.boolean().default(true).describe('Turns this part on (default true when the block is present).'),
  endpoint: HttpUrlSchema.optional().describe('OTLP collector URL.'),
  protocol: z.enum(['grpc', 'http/protobuf', 'http/json']).default('grpc').describe('OTLP wire protocol.'),
  headers: z.record(z.string(), z.string()).optional().describe('Headers sent to the collector.'),
  insecure: z.boolean().default(false).describe('Allow a collector without TLS.'),
});

export const ExportersConfigSchema = z.strictObject({
  otlp: OtlpExporterSchema.optional().describe('Export over OTLP.'),
  console: z
    .strictObject({
      enabled: z
        .boolean()
        .default(true)
        .describe('Turns this part on (default true when the block is present).'),
    })
    .optional()
    .describe('Print telemetry to the console.'),
  azure_monitor: z
    .strictObject({
      enabled: z
        .boolean()
        .default(true)
        .describe('Turns this part on (default true when the block is present).'),
      connection_string: z.string().min(1).optional().describe('Azure Monitor connection string.'),
    })
    .optional()
    .describe('Azure Monitor exporter (not supported by the Claude backend).'),
  prometheus: z
    .strictObject({
      enabled: z
        .boolean()
        .default(true)
        .describe('Turns this part on (default true when the block is present).'),
      port: z.int().min(1).max(65_535).optional().describe('Port of the /metrics endpoint.'),
    })
    .optional()
    .describe('Prometheus exporter (not supported by the Claude backend).'),
});

/** OpenTelemetry settings. Sub-blocks default to enabled when present; the whole is off by default. */
export const ObservabilityConfigSchema = z.strictObject({
  enabled: z.boolean().default(false).describe('Turns telemetry on (off by default).'),
  service_name: z.string().min(1).optional().describe('service.name of the exported telemetry.'),
  traces: TracesConfigSchema.optional().describe('Trace settings.'),
  metrics: MetricsConfigSchema.optional().describe('Metric settings.'),
  logs: LogsConfigSchema.optional().describe('Log settings.'),
  exporters: ExportersConfigSchema.optional().describe('Where telemetry goes.'),
});
/** The `observability:` block. */
export type ObservabilityConfig = z.infer<typeof ObservabilityConfigSchema>;

/** Semantic pre-selection of tools (not supported by the Claude backend). */
export const ToolFilteringConfigSchema = z.strictObject({
  enabled: z.boolean().default(true).describe('Turns this part on (default true when the block is present).'),
  top_k: z.int().positive().default(5).describe('Most tools offered per request.'),
  similarity_threshold: z.number().min(0).max(1).default(0.5).describe('Lowest similarity offered, 0..1.'),
  always_include: z.array(z.string().min(1)).default([]).describe('Tools offered whatever the request.'),
});
/** The `tool_filtering:` block. */
export type ToolFilteringConfig = z.infer<typeof ToolFilteringConfigSchema>;
