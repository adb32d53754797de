import { z } from 'zod';
import { HttpUrlSchema } from './llm-provider-schema.js';

/** A regular expression given as a string; checked to compile. */
const RegexSourceSchema = z.string().superRefine((source, context) => {
  try {
    new RegExp(source);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(
      /^Invalid regular expression: /,
      '',
    );
    context.addIssue({ code: 'custom', message: `is not a valid regular expression: ${reason}`, params: {} });
  }
});

// Fields without defaults stay undefined when absent, so startup rules can tell "set by the user"
// from "defaulted" (the Claude backend warns about fields it cannot honour only when they are set).
export const TracesConfigSchema = z.strictObject({
  enabled: z.boolean().default(true),
  sample_rate: z.number().min(0).max(1).optional(),
  redaction_patterns: z.array(RegexSourceSchema).optional(),
  capture_content: z.boolean().default(false),
});

export const MetricsConfigSchema = z.strictObject({
  enabled: z.boolean().default(true),
  export_interval_ms: z.int().positive().optional(),
});

export const LogsConfigSchema = z.strictObject({
  enabled: z.boolean().default(true),
  level: z.enum(['debug', 'info', 'warning', 'error']).optional(),
  filter_namespaces: z.array(z.string().min(1)).optional(),
});

export const OtlpExporterSchema = z.strictObject({
  enabled: z.boolean().default(true),
  endpoint: HttpUrlSchema.optional(),
  protocol: z.enum(['grpc', 'http/protobuf', 'http/json']).default('grpc'),
  headers: z.record(z.string(), z.string()).optional(),
  insecure: z.boolean().default(false),
});

export const ExportersConfigSchema = z.strictObject({
  otlp: OtlpExporterSchema.optional(),
  console: z.strictObject({ enabled: z.boolean().default(true) }).optional(),
  azure_monitor: z
    .strictObject({ enabled: z.boolean().default(true), connection_string: z.string().min(1).optional() })
    .optional(),
  prometheus: z
    .strictObject({ enabled: z.boolean().default(true), port: z.int().min(1).max(65_535).optional() })
    .optional(),
});

/** OpenTelemetry settings. Sub-blocks default to enabled when present; the whole is off by default. */
export const ObservabilityConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
  service_name: z.string().min(1).optional(),
  traces: TracesConfigSchema.optional(),
  metrics: MetricsConfigSchema.optional(),
  logs: LogsConfigSchema.optional(),
  exporters: ExportersConfigSchema.optional(),
});
/** The `observability:` block. */
export type ObservabilityConfig = z.infer<typeof ObservabilityConfigSchema>;

/** Semantic pre-selection of tools (not supported by the Claude backend). */
export const ToolFilteringConfigSchema = z.strictObject({
  enabled: z.boolean().default(true),
  top_k: z.int().positive().default(5),
  similarity_threshold: z.number().min(0).max(1).default(0.5),
  always_include: z.array(z.string().min(1)).default([]),
});
/** The `tool_filtering:` block. */
export type ToolFilteringConfig = z.infer<typeof ToolFilteringConfigSchema>;
