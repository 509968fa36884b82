import { workerSuite } from './worker-suite.js';

/** The C# worker on the .NET SDK's runtime (skipped with the reason where `dotnet` is missing). */
await workerSuite('dotnet');
