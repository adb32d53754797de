// Function tools are plain exported functions. They receive the validated arguments
// and return a string or any JSON-serialisable value; a thrown error becomes an error
// tool result the model can read.
const ORDERS = {
  'A-1001': { status: 'shipped', items: ['USB-C cable', 'Charger 65 W'], total: 54.9, carrier: 'DHL' },
  'A-1002': { status: 'processing', items: ['Mechanical keyboard'], total: 129.0 },
};

export async function lookupOrder({ order_id }) {
  const order = ORDERS[order_id];
  if (!order) throw new Error(`order ${order_id} does not exist`);
  return { order_id, ...order };
}
