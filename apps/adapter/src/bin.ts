#!/usr/bin/env node
/**
 * The `xprotocol-adapter` executable.
 * @module
 */
import { runBin } from './cli/cli-shape.js';
import { runCli } from './cli/program.js';

runBin('xprotocol-adapter', runCli);
