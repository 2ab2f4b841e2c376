// The start-up floor program: prints one line and exits. `npm run bench` compiles it exactly
// like the product (compile-like-product.ts) and compares every start-up figure with it.
console.log('floor');
