import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

/** A span as OTLP/HTTP JSON carries it (the fields tests look at). */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: { key: string; value: Record<string, unknown> }[];
  status?: { code?: number; message?: string };
  /** The attributes of the resource that sent it (service.name, …). */
  resource?: { key: string; value: Record<string, unknown> }[];
}

/** A data point of a metric: its attributes and its value (a sum, a gauge, a histogram's count). */
export interface OtlpDataPoint {
  attributes?: { key: string; value: Record<string, unknown> }[];
  asInt?: number | string;
  asDouble?: number;
  count?: number | string;
  sum?: number;
}

/** A metric as OTLP/HTTP JSON carries it, with the data points of whichever kind it is. */
export interface OtlpMetric {
  name: string;
  unit?: string;
  points: OtlpDataPoint[];
  /** The attributes of the resource that sent it (service.name, …). */
  resource?: { key: string; value: Record<string, unknown> }[];
}

/** A loopback OTLP/HTTP (JSON) receiver that keeps every span and metric it is sent. */
export interface OtlpReceiver {
  /** The base URL (`http://127.0.0.1:PORT`), as `OTEL_EXPORTER_OTLP_ENDPOINT` takes it. */
  url: string;
  spans: OtlpSpan[];
  metrics: OtlpMetric[];
  /** The content type of each request, in arrival order. */
  contentTypes: string[];
  close(): Promise<void>;
}

/** The value of `key` among OTLP attributes (`{ stringValue: … }` unwrapped). */
export function otlpAttribute(
  item: { attributes?: { key: string; value: Record<string, unknown> }[] },
  key: string,
): unknown {
  const value = item.attributes?.find((entry) => entry.key === key)?.value;
  return value ? Object.values(value)[0] : undefined;
}

const attributes = z
  .array(z.object({ key: z.string(), value: z.record(z.string(), z.unknown()) }))
  .optional();
const SpanSchema = z.looseObject({
  traceId: z.string(),
  spanId: z.string(),
  parentSpanId: z.string().optional(),
  name: z.string(),
  attributes: attributes.transform((value) => value ?? []),
  status: z.looseObject({ code: z.number().optional(), message: z.string().optional() }).optional(),
});
const ResourceSchema = z.object({ attributes }).optional();
const TracesSchema = z.object({
  resourceSpans: z
    .array(
      z.object({
        resource: ResourceSchema,
        scopeSpans: z.array(z.object({ spans: z.array(SpanSchema).default([]) })).default([]),
      }),
    )
    .default([]),
});
const PointSchema = z.looseObject({
  attributes,
  asInt: z.union([z.number(), z.string()]).optional(),
  asDouble: z.number().optional(),
  count: z.union([z.number(), z.string()]).optional(),
  sum: z.number().optional(),
});
const DataSchema = z.object({ dataPoints: z.array(PointSchema).default([]) }).optional();
const MetricsSchema = z.object({
  resourceMetrics: z
    .array(
      z.object({
        resource: ResourceSchema,
        scopeMetrics: z
          .array(
            z.object({
              metrics: z
                .array(
                  z.looseObject({
                    name: z.string(),
                    unit: z.string().optional(),
                    sum: DataSchema,
                    gauge: DataSchema,
                    histogram: DataSchema,
                  }),
                )
                .default([]),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
});

/** Starts the receiver on 127.0.0.1 (a free port); `/v1/traces` and `/v1/metrics` answer 200. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: OtlpSpan[] = [];
  const metrics: OtlpMetric[] = [];
  const contentTypes: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      contentTypes.push(request.headers['content-type'] ?? '');
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        if (request.url === '/v1/traces') {
          const body = TracesSchema.parse(JSON.parse(text));
          for (const resource of body.resourceSpans)
            for (const scope of resource.scopeSpans)
              for (const span of scope.spans)
                spans.push(
                  resource.resource?.attributes ? { ...span, resource: resource.resource.attributes } : span,
                );
        } else if (request.url === '/v1/metrics') {
          const body = MetricsSchema.parse(JSON.parse(text));
          for (const resource of body.resourceMetrics)
            for (const scope of resource.scopeMetrics)
              for (const metric of scope.metrics) {
                const data = metric.sum ?? metric.gauge ?? metric.histogram;
                metrics.push({
                  name: metric.name,
                  ...(metric.unit ? { unit: metric.unit } : {}),
                  points: data?.dataPoints ?? [],
                  ...(resource.resource?.attributes ? { resource: resource.resource.attributes } : {}),
                });
              }
        }
      } catch {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end('{"error":"not OTLP JSON"}');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    metrics,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
