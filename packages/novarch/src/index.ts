export const NOVARCH_PLACEHOLDER = true;
