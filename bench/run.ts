// Benchmarks entry point (`npm run bench`). The engine's benchmarks will live here.
console.log('no benchmarks yet');
