/** 127.0.0.1, ::1, localhost and the rest of 127.0.0.0/8 (servers bind these without --allow-remote). */
export function isLoopbackHost(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  return name === 'localhost' || name === '::1' || /^127(\.\d{1,3}){3}$/.test(name);
}
