// What the case page needs to offer its labelling control (GET /api/labelling); browser-safe types.

/** Whether this viewer writes labels, and with which token, for which judge metrics. */
export type ViewLabelling =
  | { writable: false }
  | {
      writable: true;
      /** Sent back in the x-holodeck-csrf header of every label. */
      token: string;
      /** The judge metrics of agent.yaml that have a `calibration:` labels file. */
      metrics: string[];
    };
