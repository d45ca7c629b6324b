#!/usr/bin/env node
/**
 * The `xprotocol-devserver` executable.
 * @module
 */
import { runBin } from '@xprotocol/mcp-adapter';
import { runDevserverCli } from './cli.js';

runBin('xprotocol-devserver', (argv) => runDevserverCli(argv));
